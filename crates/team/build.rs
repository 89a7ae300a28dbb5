// `embed_migrations!` reads the migrations folder at compile time, but cargo only sees
// the files it included: a new migration would be left out of an incremental build.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
