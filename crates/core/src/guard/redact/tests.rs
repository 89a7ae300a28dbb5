//! Made-up, well-formed secrets of every kind are redacted; ordinary code, git hashes and
//! UUIDs are left alone. The fake secrets are assembled at run time so this file itself
//! never trips a secret scanner.

use super::*;

fn rep(s: &str, n: usize) -> String {
    s.repeat(n)
}

/// (kind, text containing one secret, the secret).
fn secrets() -> Vec<(&'static str, String, String)> {
    let alnum36 = rep("aB3dE5fG7h", 4)[..36].to_owned();
    let cases: Vec<(&str, String)> = vec![
        ("aws-access-token", format!("{}{}", "AKIA", "QZ7R2XK4M6P5T3VW")),
        ("github-pat", format!("{}{}", "ghp_", alnum36)),
        ("github-oauth", format!("{}{}", "gho_", alnum36)),
        ("github-fine-grained-pat", format!("{}{}", "github_pat_", &rep("11AbCdEfGh", 9)[..82])),
        ("gitlab-pat", format!("{}{}", "glpat-", "x9Yz8Wv7Ut6Sr5Qp4On3")),
        ("slack-bot-token", format!("{}{}", "xoxb-", "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx")),
        (
            "slack-webhook-url",
            format!("https://hooks.slack.com/services/{}", "T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"),
        ),
        ("stripe-access-token", format!("{}{}", "sk_live_", "51H8sKdLkP3jQ9rT2vW4xY6zA8bC0dE")),
        (
            "anthropic-api-key|anthropic-admin-api-key",
            format!("{}{}", "sk-ant-api03-", rep("Ab1_Cd2-Ef3", 8)),
        ),
        ("openai-api-key", format!("{}{}", "sk-proj-", rep("Zx9Yw8Vu7T", 5))),
        ("openai-api-key", format!("sk-{}{}{}", "A1b2C3d4E5f6G7h8I9j0", "T3BlbkFJ", "K1l2M3n4O5p6Q7r8S9t0")),
        ("gcp-api-key", format!("{}{}", "AIza", "SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY")),
        ("npm-access-token", format!("{}{}", "npm_", alnum36)),
        ("pypi-upload-token|pypi-token", format!("{}{}", "pypi-AgEIcHlwaS5vcmc", rep("CJDkYWQ4NWY2", 5))),
        ("huggingface-access-token", format!("{}{}", "hf_", "AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh")),
        (
            "sendgrid-api-token|sendgrid-api-key",
            format!("SG.{}.{}", "ngeVfQFYQlKU0ufo8x5d1A", "TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr"),
        ),
        (
            "jwt",
            format!(
                "{}.{}.{}",
                "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
                "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0",
                "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
            ),
        ),
    ];
    let mut out: Vec<(&str, String, String)> =
        cases.into_iter().map(|(k, s)| (k, format!("We use {s} for the deploy."), s)).collect();
    let pem_body = rep("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7", 3);
    let pem =
        format!("-----BEGIN RSA {}-----\n{pem_body}\n-----END RSA {}-----", "PRIVATE KEY", "PRIVATE KEY");
    out.push(("private-key", format!("key:\n{pem}\nend"), pem));
    out.push((
        "bearer-token|curl-auth-header|generic-api-key",
        "curl -H 'Authorization: Bearer 9fQ2xL7mK4pR8vT3wZ6yB1nC5dH0jG' https://api".into(),
        "9fQ2xL7mK4pR8vT3wZ6yB1nC5dH0jG".into(),
    ));
    out.push((
        "url-credentials|generic-api-key",
        "DATABASE_URL=postgres://app:Xk9#mQ2vL7pR@db.internal:5432/app".into(),
        "Xk9#mQ2vL7pR".into(),
    ));
    out.push((
        "secret-assignment|generic-api-key",
        "export DB_PASSWORD=Tr0ub4dor&3xQ9".into(),
        "Tr0ub4dor&3xQ9".into(),
    ));
    out.push((
        "secret-assignment|generic-api-key",
        "client_secret: \"q8W2e4R6t8Y0u2I4o6P8\"".into(),
        "q8W2e4R6t8Y0u2I4o6P8".into(),
    ));
    out.push((
        "aws-secret-access-key|generic-api-key",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".into(),
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".into(),
    ));
    out
}

#[test]
fn every_kind_of_secret_is_redacted_and_named() {
    for (kind, text, secret) in secrets() {
        let (out, found) = scrub(&text);
        assert!(!out.contains(&secret), "{kind}: {out}");
        assert!(out.contains("[redacted:"), "{kind}: {out}");
        // Where gitleaks and Mooring's own rules both match, either may name it.
        let named = kind.split('|').any(|k| found.kinds.iter().any(|f| f == k));
        assert!(named, "{kind}: found {:?} in {out}", found.kinds);
        assert!(found.message.contains("secret"), "the agent is told: {}", found.message);
    }
}

#[test]
fn ordinary_code_hashes_and_uuids_are_untouched() {
    let benign = [
        "commit 3f786850e387550fdab836ed7e6dc881de23001b fixed the lease renewal",
        "request id 123e4567-e89b-12d3-a456-426614174000 timed out",
        "let token = request.headers().get(\"authorization\");",
        "password_hash = hash_password(pw)",
        "API_KEY = os.environ[\"API_KEY\"]",
        "token: ${{ secrets.GITHUB_TOKEN }}",
        "def check_password(self, password: str) -> bool:",
        "The secret to good leases is a short TTL; use etcd 3.5 with a 10s lease.",
        "fn access_key_id(&self) -> &str { &self.access_key_id }",
        "const SESSION_TOKEN_HEADER: &str = \"x-session-token\";",
        "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "Use the bearer token from the vault; never paste it.",
        "see https://example.com/docs and ssh://git@github.com/org/repo.git",
        "pwd = os.getcwd()",
        "secret_name = config.database.secret_ref",
        "github_pat_ is the prefix of fine-grained tokens",
        "secret rotation landed in commit 3f786850e387550fdab836ed7e6dc881de23001b today",
    ];
    for text in benign {
        let (out, found) = scrub(text);
        assert_eq!(out, text, "changed: {:?}", found.kinds);
        assert_eq!(found.count, 0);
        assert!(found.message.is_empty());
    }
}

#[test]
fn private_spans_are_never_stored() {
    let (out, found) =
        scrub("Keep <private>the staging password is hunter2</private> in mind. <PRIVATE>open");
    assert!(!out.contains("hunter2") && !out.contains("open"), "{out}");
    assert!(out.starts_with("Keep [private: not stored] in mind."), "{out}");
    assert_eq!(found.kinds, ["private"]);
    assert_eq!(found.count, 2);
}

#[test]
fn several_secrets_in_one_text_are_all_counted() {
    let all: Vec<String> = secrets().into_iter().map(|(_, t, _)| t).collect();
    let text = all.join("\n");
    let (out, found) = scrub(&text);
    for (kind, _, secret) in secrets() {
        assert!(!out.contains(&secret), "{kind} survived");
    }
    assert!(found.count >= secrets().len(), "{} < {}", found.count, secrets().len());
}

#[test]
fn the_gitleaks_rules_load() {
    let (rules, refused) = rule_counts();
    // 221 gitleaks rules, 4 of them about file paths only, plus Mooring's own.
    assert!(rules >= 200, "only {rules} rules in force");
    assert!(refused <= 5, "{refused} gitleaks patterns did not compile");
    eprintln!("{rules} rules in force, {refused} gitleaks patterns refused by Rust's regex");
    // Mooring's own rules must all compile (they are compiled lazily, so a test must say so).
    let own: toml::Table = include_str!("rules.toml").parse().unwrap();
    let own = own["rules"].as_array().unwrap();
    assert_eq!(own.len(), super::RULES.len() - super::OWN_FROM, "every rule of rules.toml is in force");
    for r in own {
        let id = r["id"].as_str().unwrap();
        let rule = super::RULES.iter().find(|x| x.id == id).unwrap();
        assert!(rule.regex().is_some(), "rule {id} does not compile");
    }
}

#[test]
fn command_line_passwords_provider_keys_cut_keys_and_secrets_in_words_are_redacted() {
    let or_key = format!("{}{}", "sk-or-v1-", rep("0a1b2c3d4e5f6a7b", 4));
    let ds_key = format!("{}{}", "sk-", "3f9a1c7e5b2d8f4a6c0e9b1d7f3a5c8e");
    let pem_start =
        format!("-----BEGIN OPENSSH {}-----\n{}", "PRIVATE KEY", rep("b3BlbnNzaC1rZXktdjEAAAAABG5vbmU", 4));
    let cases: Vec<(String, &str)> = vec![
        ("mysql -u root -pS3cretPassw0rd app".into(), "S3cretPassw0rd"),
        ("sshpass -p 'hunter2Secret!' ssh deploy@host".into(), "hunter2Secret!"),
        ("psql --password Zq8Lm3Np7Rx2 -h db".into(), "Zq8Lm3Np7Rx2"),
        (
            "docker login -u me -p dckr_pat_2b3e36beeb386dfdaacb9b46004 registry".into(),
            "dckr_pat_2b3e36beeb386dfdaacb9b46004",
        ),
        (
            "aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".into(),
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        ),
        (format!("OPENROUTER key {or_key} here"), "0a1b2c3d4e5f6a7b0a1b2c3d"),
        (format!("deepseek: {ds_key}"), "3f9a1c7e5b2d8f4a6c0e9b1d7f3a5c8e"),
        (format!("here is the key\n{pem_start}"), "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU"),
        ("the secret is u8Hk2pQ9zX4mW7 so use it".into(), "u8Hk2pQ9zX4mW7"),
        (
            "key AKIAQZ7R2XK4M6P5T3VW secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".into(),
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        ),
        (
            "AKIAQZ7R2XK4M6P5T3VW wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".into(),
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        ),
        (
            "the secret: 9f8Kx2Lm4Np6Qr8St0Uv2Wx4Yz6Ab8Cd0Ef2Gh4I".into(),
            "9f8Kx2Lm4Np6Qr8St0Uv2Wx4Yz6Ab8Cd0Ef2Gh4I",
        ),
    ];
    for (text, secret) in cases {
        let (out, found) = scrub(&text);
        assert!(!out.contains(secret), "{text} -> {out}");
        assert!(found.count > 0, "{text}");
    }
    // Ordinary command lines and prose stay as they are.
    for plain in [
        "mysql -u root -p app",
        "docker login --password-stdin registry",
        "the token is valid",
        "git commit -m 'the password is checked now'",
        "see sk-learn docs",
    ] {
        assert_eq!(scrub(plain).0, plain, "{plain}");
    }
}

#[test]
fn a_token_used_as_a_url_s_user_is_marked_once() {
    // The token rule marks it first; the URL rule must not take the marker for a user
    // name and a password and mark the marker.
    let token = format!("ghp_{}", rep("Z7k2Qm9x", 4) + "Ab1c");
    let (out, _) = scrub(&format!("git push https://{token}@github.com/x/y"));
    assert!(!out.contains(&token), "{out}");
    assert_eq!(out.matches("[redacted:").count(), 1, "{out}");
    assert!(out.ends_with("@github.com/x/y"), "{out}");
    // A real password in a URL is still found.
    let (out, _) = scrub("psql postgres://admin:Xk29vLq7Rt@db.internal/app");
    assert!(!out.contains("Xk29vLq7Rt") && out.contains("url-credentials"), "{out}");
}

#[test]
fn gitleaks_allowlists_take_back_the_hits_they_name() {
    // Each allowlist is compiled only when a hit needs it (see `allow_set`). Both kept
    // texts are hits of a gitleaks rule that its allowlist (by the whole match, by the
    // secret) takes back: without the allowlists they come out redacted.
    let real = "secret_key = \"Q7xZ9kLm2Vb8wPq4Rt6\"";
    let (out, found) = scrub(real);
    assert!(out.contains("[redacted:"), "{out}");
    assert_eq!(found.count, 1);
    for kept in ["topic_key: Q7xZ9kLm2Vb8wPq4Rt6", "heroku api key: s.abcdefghijklmnopqrstuvwx"] {
        let (out, found) = scrub(kept);
        assert_eq!(out, kept, "an allowlisted value stays");
        assert_eq!(found.count, 0, "{kept}");
    }
}

#[test]
fn keywords_found_word_by_word_are_the_automaton_s() {
    // A short-lived process looks for each keyword in turn; a long one builds the
    // automaton. Both must wake the same rules, or a secret would be kept by one of them.
    let keywords = &*super::keywords::KEYWORDS;
    let automaton = keywords.build();
    let mut texts: Vec<String> = secrets().into_iter().map(|(_, text, _)| text).collect();
    texts.push("an ordinary sentence about the lease renewal and its heartbeat".into());
    texts.push(keywords.words.join(" "));
    texts.push(keywords.words.concat());
    for text in texts {
        let lower = text.to_ascii_lowercase();
        let (mut one_pass, mut word_by_word) = (vec![false; RULES.len()], vec![false; RULES.len()]);
        keywords.mark_in_one_pass(&automaton, &lower, &mut one_pass);
        keywords.mark_word_by_word(&lower, &mut word_by_word);
        assert_eq!(one_pass, word_by_word, "{text}");
    }
}
