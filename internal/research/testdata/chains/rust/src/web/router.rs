use super::login::handle_login;

pub fn route(path: &str) {
    if path == "/login" {
        handle_login(path);
    }
}
