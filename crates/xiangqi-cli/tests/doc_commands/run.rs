//! Running one shown command as a reader would: through `sh`, in the
//! page's scratch folder, with the `xiangqi` and `xiangqi-engine` just
//! built first on `PATH`, stdout and stderr in one stream (the order a
//! terminal shows), no input, and a time bound so a command that waits
//! for ever fails the test instead of hanging it.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a command printed and how it ended.
pub struct Ran {
    pub output: String,
    /// The exit status; `None` when it was killed at the time bound.
    pub status: Option<i32>,
}

/// Longer than any shown command needs in a debug build; the bound is a
/// guard against hangs, not a speed check.
const TIME_BOUND: Duration = Duration::from_secs(180);

pub fn run(command: &str, folder: &Path, bin_folder: &Path) -> Ran {
    let path = match std::env::var_os("PATH") {
        Some(rest) => {
            let mut folders = vec![bin_folder.to_path_buf()];
            folders.extend(std::env::split_paths(&rest));
            std::env::join_paths(folders).expect("PATH entries join")
        }
        None => bin_folder.as_os_str().to_owned(),
    };
    // Braces and newlines keep a trailing `# comment` from swallowing the
    // redirection.
    let script = format!("{{\n{command}\n}} 2>&1");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(folder)
        .env("PATH", path)
        .env("HOME", folder)
        .env("NO_COLOR", "1")
        .env_remove("XDG_DATA_HOME")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        // Its own process group, so that the bound stops the command's
        // children too (they hold the output pipe open).
        .process_group(0)
        .spawn()
        .expect("sh starts");
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stdout.read_to_end(&mut bytes);
        bytes
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait on sh") {
            break status.code();
        }
        if started.elapsed() > TIME_BOUND {
            let group = child.id() as libc::pid_t;
            // SAFETY: a plain signal to the process group started above.
            unsafe { libc::kill(-group, libc::SIGKILL) };
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let bytes = reader.join().expect("the reader thread ends");
    Ran {
        output: String::from_utf8_lossy(&bytes).into_owned(),
        status,
    }
}
