//! How fast the game module applies moves: a whole game read from SAN and
//! played (parse_san + Game::play, with repetition keys), the same game
//! written back to SAN, and the end-of-game checks after every move.

use std::hint::black_box;

use argus::game::{Chess, Game, parse_san, san_of};

/// The same allocator as the `argus` binary (see src/main.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// Fischer-Spassky 1992 game 29 (the PGN standard's example), 85 plies.
const MOVES: &str = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 \
c4 c6 cxb5 axb5 Nc3 Bb7 Bg5 b4 Nb1 h6 Bh4 c5 dxe5 Nxe4 Bxe7 Qxe7 exd6 Qf6 Nbd2 Nxd6 Nc4 Nxc4 \
Bxc4 Nb6 Ne5 Rae8 Bxf7+ Rxf7 Nxf7 Rxe1+ Qxe1 Kxf7 Qe3 Qg5 Qxg5 hxg5 b3 Ke6 a3 Kd6 axb4 cxb4 \
Ra5 Nd5 f3 Bc8 Kf2 Bf5 Ra7 g6 Ra6+ Kc5 Ke1 Nf4 g3 Nxh3 Kd2 Kb5 Rd6 Kc5 Ra6 Nf2 g4 Bd3 Re6";

fn bench_game(c: &mut Criterion) {
    let sans: Vec<&str> = MOVES.split_whitespace().collect();
    let mut group = c.benchmark_group("game");
    group.throughput(Throughput::Elements(sans.len() as u64));

    group.bench_function("parse_san+play full game", |b| {
        b.iter(|| {
            let mut game = Game::new(Chess::default());
            for san in &sans {
                let m = parse_san(game.position(), black_box(san)).expect("legal");
                game.play(m).expect("legal");
            }
            black_box(game.ply())
        })
    });

    let mut game = Game::new(Chess::default());
    for san in &sans {
        game.play_san(san).expect("legal");
    }
    group.bench_function("san_of full game", |b| {
        b.iter(|| {
            let mut n = 0;
            for (ply, m) in game.moves().iter().enumerate() {
                if let Some(pos) = game.position_at(ply) {
                    n += san_of(pos, black_box(m)).len();
                }
            }
            black_box(n)
        })
    });

    group.bench_function("automatic_end+claimable_draw per move", |b| {
        b.iter(|| {
            let mut replay = Game::new(Chess::default());
            let mut ends = 0;
            for m in game.moves() {
                replay.play(*m).expect("legal");
                ends += usize::from(replay.automatic_end().is_some());
                ends += usize::from(replay.claimable_draw().is_some());
            }
            black_box(ends)
        })
    });
    group.finish();
}

criterion_group!(benches, bench_game);
criterion_main!(benches);
