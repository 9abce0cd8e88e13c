use clap::Parser;

/// argus: a referee for computer chess played across serial cables.
#[derive(Parser)]
#[command(version, about)]
struct Cli {}

fn main() {
    let _ = Cli::parse();
}
