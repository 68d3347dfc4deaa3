pub trait Authenticatable {
    fn authenticate(&self, user: &str, password: &str) -> bool;
}

pub struct Token {
    value: String,
}

impl Authenticatable for Token {
    fn authenticate(&self, user: &str, password: &str) -> bool {
        !self.value.is_empty()
    }
}

pub struct Lamp;

impl Lamp {
    pub fn authenticate(&self, user: &str, password: &str) -> bool {
        false
    }
}
