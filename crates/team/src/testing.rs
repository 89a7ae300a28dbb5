//! A real PostgreSQL for the tests: Debian's server binaries, `initdb` into a temporary
//! directory and `pg_ctl` on a free loopback port, as the `postgres` user when the tests
//! run as root (initdb refuses root), stopped when dropped. Without the binaries the
//! tests fail and say how to install them (`MOORING_PG_BIN` points elsewhere). Built with
//! the `testing` feature, for this crate's tests and the benchmarks.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

/// The role the tests connect as: a plain role owning its databases (not a superuser,
/// which row security would not apply to), as a managed database gives a team.
pub const USER: &str = "mooring";
/// The server's superuser, which creates the databases.
const ADMIN: &str = "mooring_admin";
/// The password of [`USER`].
pub const PASSWORD: &str = "team-test-password";

/// A running PostgreSQL server.
pub struct Postgres {
    bin: PathBuf,
    data: PathBuf,
    /// The loopback port it listens on.
    pub port: u16,
    /// With TLS: the certificate authority that signed the server's certificate (PEM).
    pub ca: Option<PathBuf>,
    _dir: tempfile::TempDir,
    next_db: AtomicU32,
}

fn bin_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("MOORING_PG_BIN") {
        return PathBuf::from(dir);
    }
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|d| d.flatten().map(|e| e.path().join("bin")).filter(|p| p.join("initdb").is_file()).collect())
        .unwrap_or_default();
    versions.sort();
    versions.pop().unwrap_or_else(|| {
        panic!("PostgreSQL server binaries not found: apt-get install postgresql (or set MOORING_PG_BIN)")
    })
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Run a server binary, as `postgres` when we are root.
fn run(bin: &Path, tool: &str, args: &[&str]) {
    let exe = bin.join(tool);
    let mut cmd = if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(&exe);
        c
    } else {
        Command::new(&exe)
    };
    let out = cmd.args(args).output().unwrap_or_else(|e| panic!("cannot run {}: {e}", exe.display()));
    assert!(
        out.status.success(),
        "{tool} {args:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

impl Postgres {
    /// Initialise and start a server.
    pub fn start() -> Self {
        Self::start_with(false)
    }

    /// A server that also speaks TLS, with a certificate for `localhost` and 127.0.0.1
    /// signed by a certificate authority of its own ([`Postgres::ca`]).
    pub fn start_tls() -> Self {
        Self::start_with(true)
    }

    fn start_with(tls: bool) -> Self {
        let bin = bin_dir();
        let dir = tempfile::Builder::new().prefix("mooring-pg-").tempdir().unwrap();
        let data = dir.path().join("data");
        let pwfile = dir.path().join("pw");
        std::fs::write(&pwfile, PASSWORD).unwrap();
        if is_root() {
            let ok =
                Command::new("chown").args(["-R", "postgres:postgres"]).arg(dir.path()).status().unwrap();
            assert!(ok.success(), "chown to postgres failed");
        }
        let (d, pw, sock) = (data.to_str().unwrap(), pwfile.to_str().unwrap(), dir.path().to_str().unwrap());
        run(
            &bin,
            "initdb",
            &["-D", d, "-U", ADMIN, "--auth=scram-sha-256", "--pwfile", pw, "-E", "UTF8", "--locale=C"],
        );
        let ca = tls.then(|| certificates(&data));
        let port = free_port();
        let opts = format!("-p {port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=off");
        let log = dir.path().join("server.log");
        run(&bin, "pg_ctl", &["-D", d, "-o", &opts, "-l", log.to_str().unwrap(), "-w", "-t", "60", "start"]);
        let pg = Self { bin, data, port, ca, _dir: dir, next_db: AtomicU32::new(0) };
        pg.admin(
            "psql",
            &["-d", "postgres", "-c", &format!("CREATE ROLE {USER} LOGIN PASSWORD '{PASSWORD}'")],
        );
        pg
    }

    /// Run a client tool as the superuser.
    fn admin(&self, tool: &str, args: &[&str]) {
        let out = Command::new(self.bin.join(tool))
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", ADMIN])
            .args(args)
            .env("PGPASSWORD", PASSWORD)
            .output()
            .unwrap();
        assert!(out.status.success(), "{tool} {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    }

    /// The URL of database `db` (without the password).
    pub fn url(&self, db: &str) -> String {
        format!("postgres://{USER}@127.0.0.1:{}/{db}?sslmode=disable", self.port)
    }

    /// A new empty database; its URL.
    pub fn fresh_db(&self) -> String {
        let name = format!("case_{}", self.next_db.fetch_add(1, Ordering::Relaxed));
        self.admin("createdb", &["-O", USER, &name]);
        self.url(&name)
    }

    /// Everything the database at `url` holds (a URL [`Postgres::fresh_db`] gave), as
    /// `pg_dump --data-only` writes it: for checks that a value is nowhere in it.
    pub fn dump(&self, url: &str) -> String {
        let db = url.rsplit('/').next().unwrap_or_default().split('?').next().unwrap_or_default();
        let out = Command::new(self.bin.join("pg_dump"))
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", ADMIN, "--data-only", db])
            .env("PGPASSWORD", PASSWORD)
            .output()
            .unwrap();
        assert!(out.status.success(), "pg_dump failed: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Stop the server (fast shutdown), as an outage would.
    pub fn stop(&self) {
        run(&self.bin, "pg_ctl", &["-D", self.data.to_str().unwrap(), "-m", "fast", "-w", "stop"]);
    }

    /// Start the stopped server again on the same port.
    pub fn restart(&self) {
        let sock = self.data.parent().unwrap().to_str().unwrap();
        let opts = format!("-p {} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=off", self.port);
        let log = self.data.parent().unwrap().join("server.log");
        let (d, l) = (self.data.to_str().unwrap(), log.to_str().unwrap());
        run(&self.bin, "pg_ctl", &["-D", d, "-o", &opts, "-l", l, "-w", "-t", "60", "start"]);
    }
}

/// A certificate authority and a server certificate for `localhost` and 127.0.0.1 it
/// signed, written where the server finds them (`ssl = on` in its configuration); the
/// authority's PEM file, beside the data directory.
fn certificates(data: &Path) -> PathBuf {
    use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair};
    let ca_key = KeyPair::generate().unwrap();
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params.distinguished_name.push(DnType::CommonName, "Mooring test CA");
    let ca_cert = ca_params.self_signed(&ca_key).unwrap();
    let key = KeyPair::generate().unwrap();
    let mut params = CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned()]).unwrap();
    params.distinguished_name.push(DnType::CommonName, "localhost");
    let cert = params.signed_by(&key, &Issuer::new(ca_params, ca_key)).unwrap();
    let write = |name: &str, text: String, mode: u32| {
        use std::os::unix::fs::PermissionsExt;
        let path = data.join(name);
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        if is_root() {
            let ok = Command::new("chown").args(["postgres:postgres"]).arg(&path).status().unwrap();
            assert!(ok.success(), "chown to postgres failed");
        }
    };
    write("server.crt", cert.pem(), 0o644);
    write("server.key", key.serialize_pem(), 0o600);
    let conf = data.join("postgresql.conf");
    let mut text = std::fs::read_to_string(&conf).unwrap();
    text.push_str("\nssl = on\nssl_cert_file = 'server.crt'\nssl_key_file = 'server.key'\n");
    std::fs::write(&conf, text).unwrap();
    let ca = data.parent().unwrap().join("ca.pem");
    std::fs::write(&ca, ca_cert.pem()).unwrap();
    ca
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let exe = self.bin.join("pg_ctl");
        let data = self.data.to_string_lossy().into_owned();
        let args = ["-D", data.as_str(), "-m", "immediate", "stop"];
        let _ = if is_root() {
            Command::new("runuser").args(["-u", "postgres", "--"]).arg(&exe).args(args).output()
        } else {
            Command::new(&exe).args(args).output()
        };
    }
}

/// Bring the database at `url` (a [`Postgres::fresh_db`]) up to schema version `version`
/// only: for a test of what a later migration does to rows written before it.
pub fn migrate_to(url: &str, version: i32) {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let mut config: tokio_postgres::Config = url.parse().unwrap();
        config.password(PASSWORD);
        let (mut client, conn) = config.connect(tokio_postgres::NoTls).await.unwrap();
        tokio::spawn(conn);
        let target = refinery::Target::Version(version);
        crate::migrations::runner().set_target(target).run_async(&mut client).await.unwrap();
    });
}
