//! Shared by the robustness tests: the `xiangqi` binary (built on first
//! use, since it belongs to another package) and a seeded random source.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// Path of the `xiangqi` binary: `XIANGQI_BIN` when set, else the one of
/// this build, built with the same cargo, target directory and profile as
/// the running test (a no-op when it is fresh).
pub fn xiangqi_bin() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        if let Some(bin) = std::env::var_os("XIANGQI_BIN") {
            return PathBuf::from(bin);
        }
        // The test binary lives in <target>/<profile>/deps/.
        let exe = std::env::current_exe().expect("test executable path");
        let profile_dir = exe
            .parent()
            .and_then(|d| d.parent())
            .expect("<target>/<profile>/deps");
        let profile = profile_dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("debug");
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into());
        let status = Command::new(cargo)
            .args([
                "build",
                "--quiet",
                "-p",
                "xiangqi-cli",
                "--bin",
                "xiangqi",
                "--profile",
            ])
            .arg(if profile == "debug" { "dev" } else { profile })
            .env(
                "CARGO_TARGET_DIR",
                profile_dir.parent().expect("target dir"),
            )
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("cannot run cargo to build the xiangqi binary");
        assert!(status.success(), "building the xiangqi binary failed");
        let bin = profile_dir.join(format!("xiangqi{}", std::env::consts::EXE_SUFFIX));
        assert!(
            bin.is_file(),
            "{} is missing after the build",
            bin.display()
        );
        bin
    })
    .clone()
}

/// The reproducible generator of the core crate, under the short name the tests use.
#[allow(unused_imports)]
pub use xiangqi_core::SplitMix64 as Rng;
