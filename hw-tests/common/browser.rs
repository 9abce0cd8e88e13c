//! A real headless browser for the web tests: Debian's `chromium`,
//! driven through `chromedriver`'s WebDriver HTTP API with a small
//! blocking client (ureq). Skips (prints `SKIPPED`) without chromedriver,
//! unless `ARGUS_REQUIRE_CHROMIUM=1`, which `.ci/run` sets.

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{Value, json};

/// How long chromedriver and the browser may take to start.
const START: Duration = Duration::from_secs(60);

fn chromedriver_available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        Command::new("chromedriver")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// The browser binary: Debian's `chromium`.
fn chromium() -> Option<&'static str> {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .find(|p| Path::new(p).exists())
}

/// A headless Chromium session; closed (and chromedriver killed) on drop.
pub struct Browser {
    driver: Child,
    agent: ureq::Agent,
    /// `http://127.0.0.1:PORT/session/ID`.
    session: String,
}

/// Evaluates to a [`Browser`] of `width` x `height`, or returns from the
/// calling test (after printing `SKIPPED: ...`) without chromedriver;
/// panics instead when `ARGUS_REQUIRE_CHROMIUM=1`.
#[macro_export]
macro_rules! browser_or_skip {
    ($width:expr, $height:expr) => {
        match $crate::common::browser::Browser::start($width, $height) {
            Some(b) => b,
            None => return,
        }
    };
}

impl Browser {
    /// Starts chromedriver and a headless Chromium with a viewport of
    /// `width` x `height`; `None` (after the SKIPPED line) without them.
    pub fn start(width: u32, height: u32) -> Option<Browser> {
        let have = chromedriver_available() && chromium().is_some();
        if !super::tool::or_skip("chromium and chromedriver", have, "ARGUS_REQUIRE_CHROMIUM") {
            return None;
        }
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(START))
            .build()
            .into();
        let base = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + START;
        while agent.get(format!("{base}/status")).call().is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium().unwrap_or_default(),
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--hide-scrollbars",
                         format!("--window-size={width},{height}")]
            }
        }}});
        let mut b = Browser {
            driver,
            agent,
            session: base,
        };
        let v = b.call("POST", "/session", Some(caps));
        let id = v["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no WebDriver session: {v}"));
        b.session = format!("{}/session/{id}", b.session);
        b.viewport(width, height, false);
        Some(b)
    }

    /// A WebDriver call on the session (or, before it, the driver); its
    /// `value`. Panics on a WebDriver error.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let v = self.try_call(method, path, body);
        if let Some(e) = v.get("error") {
            panic!("WebDriver {method} {path}: {e}: {}", v["message"]);
        }
        v
    }

    /// A WebDriver call; its `value`, which holds `error` if it failed.
    fn try_call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{path}", self.session);
        let resp = match method {
            "GET" => self.agent.get(&url).call(),
            "DELETE" => self.agent.delete(&url).call(),
            _ => self.agent.post(&url).send_json(body.unwrap_or(json!({}))),
        };
        let mut resp = resp.unwrap_or_else(|e| panic!("WebDriver {method} {path}: {e}"));
        let v: Value = resp
            .body_mut()
            .read_json()
            .unwrap_or_else(|e| panic!("WebDriver {method} {path}: {e}"));
        v["value"].clone()
    }

    /// Sets the page's viewport (a phone's with `mobile`).
    pub fn viewport(&self, width: u32, height: u32, mobile: bool) {
        let params = json!({"width": width, "height": height,
                            "deviceScaleFactor": 1, "mobile": mobile});
        let body = json!({"cmd": "Emulation.setDeviceMetricsOverride", "params": params});
        self.call("POST", "/goog/cdp/execute", Some(body));
    }

    /// Opens `url`.
    pub fn goto(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
    }

    /// Runs `script` (a function body) in the page; its return value.
    pub fn js(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    /// Runs `script` until it returns something other than null or false;
    /// panics naming `what` (with the page's text) after `within`.
    pub fn wait_js(&self, within: Duration, what: &str, script: &str) -> Value {
        let deadline = Instant::now() + within;
        loop {
            let v = self.js(script);
            if !v.is_null() && v != Value::Bool(false) {
                return v;
            }
            if Instant::now() >= deadline {
                let text = self.js("return document.body.innerText;");
                panic!("the page shows no {what} within {within:?}; it shows:\n{text}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The text of an alert the page opened, if any.
    pub fn alert_text(&self) -> Option<String> {
        let v = self.try_call("GET", "/alert/text", None);
        v.as_str().map(str::to_string)
    }

    /// A PNG of the viewport.
    pub fn screenshot(&self) -> Vec<u8> {
        let v = self.call("GET", "/screenshot", None);
        let data = v.as_str().expect("screenshot data");
        base64::engine::general_purpose::STANDARD
            .decode(data)
            .expect("screenshot base64")
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if self.session.contains("/session/") {
            let _ = self.try_call("DELETE", "", None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}
