//! The clients mcp-load drives: raw JSON-RPC over kept-alive HTTP (both protocol
//! generations) and over a child process's stdio.

use super::*;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Gen {
    Legacy,
    Modern,
}

impl Gen {
    pub(crate) fn label(self) -> &'static str {
        match self {
            Gen::Legacy => "2025-11-25",
            Gen::Modern => "2026-07-28",
        }
    }
}

/// One MCP client on one kept-alive HTTP connection.
pub(crate) struct HttpSession {
    pub(crate) http: reqwest::Client,
    pub(crate) url: String,
    pub(crate) generation: Gen,
    pub(crate) session: Option<String>,
    pub(crate) workspace: Option<String>,
}

impl HttpSession {
    pub(crate) async fn open(url: &str, generation: Gen, workspace: Option<&str>) -> Self {
        // A connection idle past the server's header timeout (10 s) is closed by it with a 408:
        // one kept idle across other rows must not be reused.
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(1)
            .pool_idle_timeout(std::time::Duration::from_secs(5))
            .tcp_nodelay(true)
            .build()
            .unwrap();
        let mut s = Self {
            http,
            url: url.to_owned(),
            generation,
            session: None,
            workspace: workspace.map(str::to_owned),
        };
        if generation == Gen::Legacy {
            let init = json!({ "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "mcp-load", "version": "1" } });
            let resp = s
                .post(
                    json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init }),
                    "initialize",
                )
                .await;
            s.session = resp.headers().get("mcp-session-id").and_then(|v| v.to_str().ok()).map(str::to_owned);
            let _ = resp.bytes().await;
            let note = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
            let _ = s.post(note, "notifications/initialized").await.bytes().await;
        }
        s
    }

    pub(crate) async fn post(&self, body: Value, method: &str) -> reqwest::Response {
        let mut req = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream");
        if let Some(s) = &self.session {
            req = req.header("mcp-session-id", s).header("mcp-protocol-version", "2025-11-25");
        }
        if self.generation == Gen::Modern {
            req = req.header("mcp-protocol-version", "2026-07-28").header("mcp-method", method);
            if let Some(name) = body["params"]["name"].as_str() {
                req = req.header("mcp-name", name);
            }
        }
        if let Some(ws) = &self.workspace {
            req = req.header("x-workspace-id", ws);
        }
        req.body(body.to_string()).send().await.unwrap()
    }

    pub(crate) async fn request(&self, method: &str, mut params: Value) -> Result<Value, String> {
        if self.generation == Gen::Modern {
            params["_meta"] = json!({
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": { "name": "mcp-load", "version": "1" }
            });
        }
        let body = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
        let text = self.post(body, method).await.text().await.map_err(|e| e.to_string())?;
        // SSE: skip the priming event (an empty `data:`), take the message.
        let json_text = text
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .rfind(|d| !d.trim().is_empty())
            .unwrap_or(&text);
        let v: Value = serde_json::from_str(json_text).map_err(|e| format!("{e}: {text}"))?;
        if v.get("error").is_some() || v["result"]["isError"] == true {
            return Err(v.to_string());
        }
        Ok(v)
    }
}

/// One MCP client over a child's stdin/stdout.
pub(crate) struct StdioSession {
    pub(crate) child: Child,
    /// Taken at the end, so a wrapped server sees its input close and exits by itself.
    stdin: Option<ChildStdin>,
    /// Run under `MOORING_LOAD_WRAP`: ended by closing its input, not killed.
    wrapped: bool,
    pub(crate) stdout: BufReader<ChildStdout>,
    pub(crate) next: u64,
}

impl StdioSession {
    /// The server at `bin`, run under `MOORING_LOAD_WRAP` when that is set (a command and
    /// its arguments split at spaces: `scripts/hot-functions.sh` records the functions a
    /// session runs with `valgrind --tool=callgrind`).
    pub(crate) fn spawn(bin: &Path, data: &Path, cwd: &Path) -> Self {
        let wrap = std::env::var("MOORING_LOAD_WRAP").unwrap_or_default();
        let mut words = wrap.split_whitespace();
        let mut cmd = match words.next() {
            Some(first) => {
                let mut cmd = Command::new(first);
                cmd.args(words).arg(bin);
                cmd
            }
            None => Command::new(bin),
        };
        cmd.arg("--data-dir").arg(data).arg("stdio").current_dir(cwd).env("MOORING_LOG", "warn");
        let mut s = Self::start(cmd);
        s.wrapped = !wrap.is_empty();
        s
    }

    pub(crate) fn start(mut cmd: Command) -> Self {
        let mut child =
            cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut s = Self { child, stdin, stdout, next: 0, wrapped: false };
        let init = json!({ "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "mcp-load", "version": "1" } });
        s.request("initialize", init).unwrap();
        writeln!(s.input(), "{}", json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
            .unwrap();
        s
    }

    pub(crate) fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.next += 1;
        let id = self.next;
        let input = self.input();
        writeln!(input, "{}", json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .map_err(|e| e.to_string())?;
        input.flush().map_err(|e| e.to_string())?;
        loop {
            let mut line = String::new();
            if self.stdout.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
                return Err("the server closed stdout".into());
            }
            let v: Value = serde_json::from_str(&line).map_err(|e| e.to_string())?;
            if v["id"] == id {
                if v.get("error").is_some() || v["result"]["isError"] == true {
                    return Err(v.to_string());
                }
                return Ok(v);
            }
        }
    }
}

impl StdioSession {
    fn input(&mut self) -> &mut ChildStdin {
        self.stdin.as_mut().expect("the session's input is open until it ends")
    }
}

impl Drop for StdioSession {
    fn drop(&mut self) {
        // End of input ends a server; a wrapper gets a moment to write what it records at exit.
        drop(self.stdin.take());
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while self.wrapped
            && matches!(self.child.try_wait(), Ok(None))
            && std::time::Instant::now() < deadline
        {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
