use crate::auth::authenticate;

pub fn handle_login(path: &str) -> bool {
    authenticate("guest", "secret")
}
