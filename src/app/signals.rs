//! Ctrl-C, SIGTERM and SIGHUP as a channel, so that every command's loop can
//! end cleanly by selecting on it.

use crossbeam_channel::{Receiver, unbounded};

/// A channel that receives `()` each time the process is asked to stop
/// (Ctrl-C, SIGTERM, SIGHUP). If the handler cannot be installed (it can
/// be only once per process), `program` says so on stderr and the channel
/// never fires: the process then stops the default way.
pub fn stop_requests(program: &str) -> Receiver<()> {
    let (tx, rx) = unbounded();
    if let Err(e) = ctrlc::set_handler(move || {
        let _ = tx.send(());
    }) {
        eprintln!("{program}: cannot catch Ctrl-C: {e}");
    }
    rx
}
