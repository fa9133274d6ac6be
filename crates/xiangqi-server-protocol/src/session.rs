//! The session cookie, which the WebSocket handshake needs: its name, and
//! how a client finds it among a response's `Set-Cookie` headers.

/// The name of the cookie that carries a session's token.
pub const SESSION_COOKIE: &str = "xq_session";

/// The `xq_session=TOKEN` pair, ready for a `Cookie` header, from the
/// values of a response's `Set-Cookie` headers; `None` when none sets it.
pub fn session_cookie_pair<'a>(set_cookie: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    set_cookie.into_iter().find_map(|value| {
        let pair = value.split(';').next()?.trim();
        let (name, _) = pair.split_once('=')?;
        (name == SESSION_COOKIE).then_some(pair)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_session_pair_among_other_cookies() {
        let headers = [
            "theme=dark; Path=/",
            "xq_session=abc123; HttpOnly; SameSite=Lax; Path=/",
        ];
        assert_eq!(session_cookie_pair(headers), Some("xq_session=abc123"));
    }

    #[test]
    fn a_cookie_whose_name_only_starts_alike_is_not_it() {
        assert_eq!(session_cookie_pair(["xq_session_old=1; Path=/"]), None);
        assert_eq!(session_cookie_pair(std::iter::empty()), None);
    }
}
