use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// argus: a referee for computer chess played across serial cables.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// List the serial ports of this machine (USB adapters with their ids).
    Ports,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Ports) => ports(),
        None => ExitCode::SUCCESS,
    }
}

/// `argus ports`: one line per port.
fn ports() -> ExitCode {
    match argus::link::list_ports() {
        Ok(ports) if ports.is_empty() => {
            println!("no serial ports found (virtual ports such as socat links are not listed)");
            ExitCode::SUCCESS
        }
        Ok(ports) => {
            for p in ports {
                println!("{p}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("argus: {e}");
            ExitCode::FAILURE
        }
    }
}
