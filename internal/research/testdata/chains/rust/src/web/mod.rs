pub mod login;
pub mod router;
