//! A tiny tokenizer for arithmetic expressions.

use std::fmt;
use std::iter::Peekable;
use std::str::Chars;

/// Maximum length of a number literal, in characters.
pub const MAX_NUMBER_LEN: usize = 32;

/// A lexical token.
#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    Number(f64),
    Ident(String),
    Op(char),
    LParen,
    RParen,
}

/// Where and why tokenizing failed.
#[derive(Debug, PartialEq)]
pub struct LexError {
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for LexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for LexError {}

/// Splits an expression into tokens.
pub struct Lexer<'a> {
    chars: Peekable<Chars<'a>>,
    offset: usize,
}

impl<'a> Lexer<'a> {
    /// Creates a lexer over src.
    pub fn new(src: &'a str) -> Self {
        Lexer { chars: src.chars().peekable(), offset: 0 }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        self.offset += c.len_utf8();
        Some(c)
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.chars.peek(), Some(c) if c.is_whitespace()) {
            self.bump();
        }
    }

    /// Reads a number literal; the first digit has been peeked.
    fn number(&mut self) -> Result<Token, LexError> {
        let start = self.offset;
        let mut text = String::new();
        while let Some(&c) = self.chars.peek() {
            if !(c.is_ascii_digit() || c == '.') {
                break;
            }
            text.push(c);
            self.bump();
            if text.len() > MAX_NUMBER_LEN {
                return Err(LexError { offset: start, message: "number too long".into() });
            }
        }
        text.parse()
            .map(Token::Number)
            .map_err(|_| LexError { offset: start, message: format!("bad number {text:?}") })
    }

    /// The byte offset of the next character.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Whether the next character is a digit.
    pub fn at_digit(&mut self) -> bool {
        matches!(self.chars.peek(), Some(c) if c.is_ascii_digit())
    }

    /// Whether the whole input has been consumed.
    pub fn is_done(&mut self) -> bool {
        self.skip_whitespace();
        self.chars.peek().is_none()
    }

    /// Binding power of an operator, for a Pratt parser.
    pub fn precedence(op: char) -> Option<(u8, u8)> {
        match op {
            '+' | '-' => Some((1, 2)),
            '*' | '/' => Some((3, 4)),
            '^' => Some((6, 5)),
            _ => None,
        }
    }

    /// Consumes the rest of the input and returns every token, stopping
    /// at the first error.
    pub fn drain(&mut self) -> Result<Vec<Token>, LexError> {
        let mut out = Vec::new();
        for token in self.by_ref() {
            out.push(token?);
        }
        Ok(out)
    }

    fn ident(&mut self) -> Token {
        let mut name = String::new();
        while let Some(&c) = self.chars.peek() {
            if !(c.is_alphanumeric() || c == '_') {
                break;
            }
            name.push(c);
            self.bump();
        }
        Token::Ident(name)
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Result<Token, LexError>;

    /// Returns the next token, an error, or None at the end of input.
    fn next(&mut self) -> Option<Self::Item> {
        self.skip_whitespace();
        let c = *self.chars.peek()?;
        let token = match c {
            '0'..='9' | '.' => return Some(self.number()),
            c if c.is_alphabetic() || c == '_' => return Some(Ok(self.ident())),
            '+' | '-' | '*' | '/' | '^' => Token::Op(c),
            '(' => Token::LParen,
            ')' => Token::RParen,
            other => {
                let offset = self.offset;
                self.bump();
                return Some(Err(LexError { offset, message: format!("unexpected {other:?}") }));
            }
        };
        self.bump();
        Some(Ok(token))
    }
}

/// Tokenizes src completely.
pub fn tokenize(src: &str) -> Result<Vec<Token>, LexError> {
    Lexer::new(src).collect()
}

cfg_streaming! {
    /// Tokenizes src lazily, one token at a time, and stops at the first
    /// error: the tokens before it are still yielded, the error is not.
    pub fn tokens(src: &str) -> impl Iterator<Item = Token> + '_ {
        let mut lexer = Lexer::new(src);
        std::iter::from_fn(move || match lexer.next() {
            Some(Ok(token)) => Some(token),
            Some(Err(_)) | None => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_ops() {
        assert_eq!(
            tokenize("1 + 2.5").unwrap(),
            vec![Token::Number(1.0), Token::Op('+'), Token::Number(2.5)]
        );
    }
}
