pub fn authenticate(user: &str, password: &str) -> bool {
    !user.is_empty() && !password.is_empty()
}
