//! How long the person has left the desktop alone, from the session's own idle monitor
//! over D-Bus: GNOME's (Mutter's idle monitor, on the session bus), else the
//! `org.freedesktop.ScreenSaver` service KDE Plasma's screen locker publishes on X11,
//! else logind's idle hint for this session (on the system bus). `None` where none
//! answers.

use std::time::Duration;

/// The desktop's idle time, if the session tells it.
#[cfg(target_os = "linux")]
pub fn idle_for() -> Option<Duration> {
    mutter().or_else(screensaver).or_else(logind)
}

/// No idle monitor Mooring reads on this platform yet.
#[cfg(not(target_os = "linux"))]
pub fn idle_for() -> Option<Duration> {
    None
}

/// Call `method` (no arguments) of `service`'s object at `path` on the session bus, where
/// the interface is named as the service; its one return value.
#[cfg(target_os = "linux")]
fn ask_session<T>(service: &str, path: &str, method: &str) -> Option<T>
where
    T: for<'de> zbus::zvariant::DynamicDeserialize<'de>,
{
    let conn = zbus::blocking::Connection::session().ok()?;
    let reply = conn.call_method(Some(service), path, Some(service), method, &()).ok()?;
    reply.body().deserialize().ok()
}

#[cfg(target_os = "linux")]
fn mutter() -> Option<Duration> {
    let ms: u64 =
        ask_session("org.gnome.Mutter.IdleMonitor", "/org/gnome/Mutter/IdleMonitor/Core", "GetIdletime")?;
    Some(Duration::from_millis(ms))
}

/// `GetSessionIdleTime`: KDE's screen locker answers in milliseconds (its idle-time
/// library's unit) and refuses on Wayland; the spec's draft says seconds. Read as
/// milliseconds, a service that means seconds reads as idle a thousand times too short
/// and never switches to away on its own, which is the safe way to be wrong.
#[cfg(target_os = "linux")]
fn screensaver() -> Option<Duration> {
    let ms: u32 =
        ask_session("org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver", "GetSessionIdleTime")?;
    Some(Duration::from_millis(u64::from(ms)))
}

#[cfg(target_os = "linux")]
fn logind() -> Option<Duration> {
    let conn = zbus::blocking::Connection::system().ok()?;
    let session = zbus::blocking::Proxy::new(
        &conn,
        "org.freedesktop.login1",
        "/org/freedesktop/login1/session/auto",
        "org.freedesktop.login1.Session",
    )
    .ok()?;
    let idle: bool = session.get_property("IdleHint").ok()?;
    if !idle {
        return Some(Duration::ZERO);
    }
    // Microseconds since the epoch (CLOCK_REALTIME).
    let since: u64 = session.get_property("IdleSinceHint").ok()?;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).ok()?;
    Some(now.saturating_sub(Duration::from_micros(since)))
}
