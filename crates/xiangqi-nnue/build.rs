//! Embeds `nets/default.xqnn` when it exists (cfg `embedded_net`), so that a
//! trained net ships in the binary by being committed there, and a build
//! without one says so instead of failing.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(embedded_net)");
    println!("cargo::rerun-if-changed=nets");
    if std::path::Path::new("nets/default.xqnn").is_file() {
        println!("cargo::rustc-cfg=embedded_net");
    }
}
