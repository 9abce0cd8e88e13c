//! The match and protocol options of `argus referee` (and the `[match]`
//! table of the config file), with the policies' value parser.

use std::path::PathBuf;

use clap::Args;
use serde::Deserialize;

use crate::referee::settings::parse_policy;
use crate::referee::{ClientFault, FalseClaim, IllegalMove, Policy};

/// The command line's parser of a [`Policy`]: its choices (with their
/// help) come from the policy's one list, [`Policy::ALL`].
fn policy_parser<P: Policy + Send + Sync>() -> impl clap::builder::TypedValueParser<Value = P> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values = P::ALL
        .iter()
        .map(|p| PossibleValue::new(p.name()).help(p.help()));
    PossibleValuesParser::new(values).try_map(|s| parse_policy::<P>(&s))
}

/// The match and protocol options of `argus referee` (also the keys of the
/// `--config` TOML file, with `-` written as `_`).
#[derive(Debug, Clone, Default, Args, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchOptions {
    /// Time control. A bare number is seconds, as in PGN TimeControl,
    /// cutechess-cli and fastchess; fractions keep milliseconds; `M:SS` or
    /// a unit (`s`, `m`, `h`) for other units. Examples: `60+1` (60 s + 1 s),
    /// `10+0.1`, `5` (5 s), `3m+2` (3 min + 2 s), `0:30+1`, `1:30+1`,
    /// `40/7200:3600` (40 moves in 2 h, then 1 h), `40/2h:30m`, `*3m`
    /// (sandclock), `-` (none) [default: -]. NAME:TIMECONTROL gives
    /// player NAME its own (time odds, as cutechess-cli's per-engine
    /// `tc=`): its clock follows it, the PGN adds `WhiteTimeControl` and
    /// `BlackTimeControl`; may be repeated.
    #[arg(long = "tc", value_name = "[NAME:]TIMECONTROL")]
    #[serde(default, deserialize_with = "super::odds::one_or_many")]
    pub tc: Vec<String>,
    /// Number of games [default: 1].
    #[arg(long)]
    pub games: Option<u32>,
    /// Keep colours: A has White in every game (in a round robin or a
    /// gauntlet: every game of a pairing has the colours of its first)
    /// [default: alternate].
    #[arg(long)]
    #[serde(default)]
    pub no_swap: bool,
    /// The rules: standard, or chess960 (also fischerandom, as
    /// cutechess-cli spells it): openings are read with X-FEN or
    /// Shredder-FEN castling, engines told UCI_Chess960 or `variant
    /// fischerandom` [default: standard; chess960 with chess960: or dfrc:
    /// openings].
    #[arg(long, value_name = "VARIANT")]
    pub variant: Option<String>,
    /// Openings: an EPD file (one position per line), a PGN file (the
    /// moves of each game), a ChessBase base (.cbi, its .cbf beside it: the
    /// main line of each game) or FBK book (.fbk: each line); each opening
    /// is played once with each colour. Chess960 start positions instead:
    /// `chess960:random` (all 960, shuffled by --shuffle's seed, 0 if not
    /// given), `chess960:N` (Scharnagl number N, 0 to 959, 518 standard),
    /// `dfrc:random` (double Chess960: each side its own back rank, drawn
    /// from the seed), `dfrc:W:B` [default with --variant chess960:
    /// chess960:random].
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Use at most this many plies of each PGN, CBI or FBK opening
    /// [default: 16].
    #[arg(long, value_name = "N")]
    pub opening_plies: Option<usize>,
    /// Shuffle the openings with this seed (default: file order).
    #[arg(long, value_name = "SEED")]
    pub shuffle: Option<u64>,
    /// PGN Event tag [default: "argus match"].
    #[arg(long)]
    pub event: Option<String>,
    /// PGN Site tag [default: "?"].
    #[arg(long)]
    pub site: Option<String>,
    /// PGN Round tag (default: the game number).
    #[arg(long)]
    pub round: Option<String>,
    /// Name of client A (default: its tcsi name, else the port).
    #[arg(long)]
    pub name_a: Option<String>,
    /// Name of client B (default: its tcsi name, else the port).
    #[arg(long)]
    pub name_b: Option<String>,
    /// Seconds to wait after `refcom reset;` [default: 5].
    #[arg(long, value_name = "SECS")]
    pub reset_delay: Option<f64>,
    /// Seconds to wait after `refcom conclude;` [default: 5].
    #[arg(long, value_name = "SECS")]
    pub conclude_delay: Option<f64>,
    /// What a false draw claim costs [default: forfeit].
    #[arg(long, value_parser = policy_parser::<FalseClaim>())]
    pub false_claim: Option<FalseClaim>,
    /// What an illegal or unparsable move costs [default: forfeit].
    #[arg(long, value_parser = policy_parser::<IllegalMove>())]
    pub illegal: Option<IllegalMove>,
    /// What a client's `refreq fault;` does [default: pause with the board,
    /// continue with --headless, where nobody could resume].
    #[arg(long, value_parser = policy_parser::<ClientFault>())]
    pub client_fault: Option<ClientFault>,
    /// Send the respond record again when the client on move has been
    /// silent this many seconds (0: never). Use it on noisy lines, where a
    /// lost record would stall an untimed game [default: 0].
    #[arg(long, value_name = "SECS")]
    pub resend_after: Option<f64>,
    /// Times a turn the position is resent to a client that echoes it
    /// wrong (or, with --illegal retry, sends a bad move), before that
    /// counts as a fault [default: 2].
    #[arg(long, value_name = "N")]
    pub max_resends: Option<u32>,
    /// Stop the match by the sequential probability ratio test on the game
    /// pairs (1-2, 3-4, ...): `elo0=0 elo1=5 alpha=0.05 beta=0.05
    /// [model=normalized|logistic]` (fastchess's and fishtest's test; alpha
    /// and beta default to 0.05, the model to normalized).
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,
    /// Adjudicate a game as a draw once this many full moves have been
    /// played, opening moves included (Termination "adjudication").
    #[arg(long, value_name = "N")]
    pub max_moves: Option<u32>,
    /// Adjudicate a draw when, from full move M on, both programs' scores
    /// (`ce` in their replies) have stayed within S centipawns of zero for
    /// N consecutive moves each; a capture or pawn move starts the count
    /// again: `movenumber=M movecount=N score=S` (cutechess-cli's -draw).
    #[arg(long, value_name = "SPEC")]
    pub draw_adjudication: Option<String>,
    /// Adjudicate a loss when a program's score has been S centipawns or
    /// more below zero for N consecutive moves of its own (with twosided,
    /// and the opponent's S or more above zero): `movecount=N score=S
    /// [twosided]` (cutechess-cli's -resign).
    #[arg(long, value_name = "SPEC")]
    pub resign_adjudication: Option<String>,
    /// Adjudicate a game once its position is in these Syzygy endgame
    /// tables (a directory, or several joined by ':'): won, lost or drawn
    /// with best play, a win the 50-move rule spoils counting as a draw.
    #[arg(long, value_name = "DIR")]
    pub syzygy: Option<String>,
}

impl MatchOptions {
    /// `self` where set, else `f`.
    pub fn or(self, f: MatchOptions) -> MatchOptions {
        MatchOptions {
            // The file's, then the flags' (the event's last one wins).
            tc: f.tc.into_iter().chain(self.tc).collect(),
            games: self.games.or(f.games),
            no_swap: self.no_swap || f.no_swap,
            variant: self.variant.or(f.variant),
            openings: self.openings.or(f.openings),
            opening_plies: self.opening_plies.or(f.opening_plies),
            shuffle: self.shuffle.or(f.shuffle),
            event: self.event.or(f.event),
            site: self.site.or(f.site),
            round: self.round.or(f.round),
            name_a: self.name_a.or(f.name_a),
            name_b: self.name_b.or(f.name_b),
            reset_delay: self.reset_delay.or(f.reset_delay),
            conclude_delay: self.conclude_delay.or(f.conclude_delay),
            false_claim: self.false_claim.or(f.false_claim),
            illegal: self.illegal.or(f.illegal),
            client_fault: self.client_fault.or(f.client_fault),
            resend_after: self.resend_after.or(f.resend_after),
            max_resends: self.max_resends.or(f.max_resends),
            sprt: self.sprt.or(f.sprt),
            max_moves: self.max_moves.or(f.max_moves),
            draw_adjudication: self.draw_adjudication.or(f.draw_adjudication),
            resign_adjudication: self.resign_adjudication.or(f.resign_adjudication),
            syzygy: self.syzygy.or(f.syzygy),
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        matches: MatchOptions,
    }

    #[test]
    fn policy_flags_take_the_policies_names_and_list_them() {
        let cli = Cli::try_parse_from(["t", "--illegal", "retry", "--false-claim", "play-on"]);
        let m = cli.map(|c| c.matches).map_err(|e| e.to_string()).unwrap();
        assert_eq!(m.illegal, Some(IllegalMove::Retry));
        assert_eq!(m.false_claim, Some(FalseClaim::PlayOn));
        let err = Cli::try_parse_from(["t", "--client-fault", "shrug"])
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("[possible values: pause, continue]"), "{err}");
    }
}
