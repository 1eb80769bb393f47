//! A hand-written FlatZinc reader: one pass over the bytes, names borrowed from the text, every error
//! with its line and column, and no recursion deeper than [`MAX_DEPTH`], so that no input can make it
//! panic or overflow the stack.
//!
//! The `flatzinc` crate (0.3) was measured first, statement by statement as its example reads:
//! 46 MB/s on the largest file of the benchmark set (bibd 19-3-1, 4.8 MB) and 20 MB/s on queens
//! n = 1000 (126 MB), parsing alone, with errors that carry no position. This reader parses the
//! queens file at about 100 MB/s and parses and compiles it into a model at about 50 MB/s
//! (`fzn-csp -v` prints both figures).

use crate::ast::{
    ConstraintItem, Decl, Domain, Expr, FlatZinc, Goal, Pos, Ranges, SolveItem, TypeInst,
    ranges_from_values,
};
use crate::error::Error;

/// The deepest nesting of arrays and annotation calls accepted. MiniZinc writes at most a few levels
/// (`seq_search([int_search([...], ...)])`); the limit only keeps hostile input from exhausting the
/// stack.
pub const MAX_DEPTH: usize = 64;

/// One token of FlatZinc.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Token<'a> {
    Ident(&'a str),
    Int(i64),
    Float(f64),
    Str(&'a str),
    Semicolon,
    Colon,
    DoubleColon,
    Comma,
    LeftBracket,
    RightBracket,
    LeftParen,
    RightParen,
    LeftBrace,
    RightBrace,
    DotDot,
    Equals,
    Eof,
}

impl Token<'_> {
    /// The token as an error message shows it.
    fn describe(&self) -> String {
        match self {
            Token::Ident(name) => format!("`{name}`"),
            Token::Int(value) => format!("`{value}`"),
            Token::Float(value) => format!("`{value}`"),
            Token::Str(_) => "a string".to_owned(),
            Token::Semicolon => "`;`".to_owned(),
            Token::Colon => "`:`".to_owned(),
            Token::DoubleColon => "`::`".to_owned(),
            Token::Comma => "`,`".to_owned(),
            Token::LeftBracket => "`[`".to_owned(),
            Token::RightBracket => "`]`".to_owned(),
            Token::LeftParen => "`(`".to_owned(),
            Token::RightParen => "`)`".to_owned(),
            Token::LeftBrace => "`{`".to_owned(),
            Token::RightBrace => "`}`".to_owned(),
            Token::DotDot => "`..`".to_owned(),
            Token::Equals => "`=`".to_owned(),
            Token::Eof => "the end of the file".to_owned(),
        }
    }
}

/// Splits the text into tokens, keeping the line and column of each.
struct Lexer<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    line: u32,
    line_start: usize,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Self {
        Lexer {
            text,
            bytes: text.as_bytes(),
            at: 0,
            line: 1,
            line_start: 0,
        }
    }

    fn pos_of(&self, at: usize) -> Pos {
        Pos {
            line: self.line,
            column: (at - self.line_start + 1) as u32,
        }
    }

    fn error(&self, at: usize, message: impl Into<String>) -> Error {
        let pos = self.pos_of(at);
        Error::Syntax {
            line: pos.line,
            column: pos.column,
            message: message.into(),
        }
    }

    /// Skips white space and `%` comments, counting lines.
    fn skip_blank(&mut self) {
        while let Some(&byte) = self.bytes.get(self.at) {
            match byte {
                b'\n' => {
                    self.at += 1;
                    self.line += 1;
                    self.line_start = self.at;
                }
                b' ' | b'\t' | b'\r' => self.at += 1,
                b'%' => {
                    while self.bytes.get(self.at).is_some_and(|&b| b != b'\n') {
                        self.at += 1;
                    }
                }
                _ => break,
            }
        }
    }

    /// The next token and where it starts.
    fn next(&mut self) -> Result<(Token<'a>, Pos), Error> {
        self.skip_blank();
        let start = self.at;
        let pos = self.pos_of(start);
        let Some(&byte) = self.bytes.get(start) else {
            return Ok((Token::Eof, pos));
        };
        let token = match byte {
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let mut end = start + 1;
                while self
                    .bytes
                    .get(end)
                    .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
                {
                    end += 1;
                }
                self.at = end;
                Token::Ident(&self.text[start..end])
            }
            b'0'..=b'9' | b'-' | b'+' => self.number(start)?,
            b'"' => {
                let mut end = start + 1;
                loop {
                    match self.bytes.get(end) {
                        None | Some(b'\n') => {
                            return Err(self.error(start, "unterminated string"));
                        }
                        Some(b'\\') => end += 2,
                        Some(b'"') => break,
                        Some(_) => end += 1,
                    }
                }
                self.at = end + 1;
                Token::Str(&self.text[start + 1..end])
            }
            b';' => self.punct(Token::Semicolon),
            b',' => self.punct(Token::Comma),
            b'[' => self.punct(Token::LeftBracket),
            b']' => self.punct(Token::RightBracket),
            b'(' => self.punct(Token::LeftParen),
            b')' => self.punct(Token::RightParen),
            b'{' => self.punct(Token::LeftBrace),
            b'}' => self.punct(Token::RightBrace),
            b'=' => self.punct(Token::Equals),
            b':' if self.bytes.get(start + 1) == Some(&b':') => {
                self.at += 2;
                Token::DoubleColon
            }
            b':' => self.punct(Token::Colon),
            b'.' if self.bytes.get(start + 1) == Some(&b'.') => {
                self.at += 2;
                Token::DotDot
            }
            _ => {
                let shown = self.text[start..]
                    .chars()
                    .next()
                    .map_or_else(String::new, |c| c.escape_debug().to_string());
                return Err(self.error(start, format!("unexpected character `{shown}`")));
            }
        };
        Ok((token, pos))
    }

    fn punct(&mut self, token: Token<'a>) -> Token<'a> {
        self.at += 1;
        token
    }

    /// An integer (decimal, `0x` hexadecimal or `0o` octal) or a float, with an optional sign. A
    /// number followed by `..` is an integer, the start of a range.
    fn number(&mut self, start: usize) -> Result<Token<'a>, Error> {
        let mut end = start;
        if matches!(self.bytes[end], b'-' | b'+') {
            end += 1;
        }
        let digits_start = end;
        let radix = match (self.bytes.get(end), self.bytes.get(end + 1)) {
            (Some(b'0'), Some(b'x')) => 16,
            (Some(b'0'), Some(b'o')) => 8,
            _ => 10,
        };
        if radix != 10 {
            end += 2;
        }
        let body_start = end;
        while self
            .bytes
            .get(end)
            .is_some_and(|b| b.is_ascii_digit() || (radix == 16 && b.is_ascii_hexdigit()))
        {
            end += 1;
        }
        if end == body_start {
            return Err(self.error(start, "expected a number"));
        }
        let mut is_float = false;
        if radix == 10 {
            // A fraction: `.` followed by a digit (`1..3` is a range, not a float).
            if self.bytes.get(end) == Some(&b'.')
                && self.bytes.get(end + 1).is_some_and(u8::is_ascii_digit)
            {
                is_float = true;
                end += 1;
                while self.bytes.get(end).is_some_and(u8::is_ascii_digit) {
                    end += 1;
                }
            }
            if matches!(self.bytes.get(end), Some(b'e' | b'E')) {
                let mut exponent = end + 1;
                if matches!(self.bytes.get(exponent), Some(b'-' | b'+')) {
                    exponent += 1;
                }
                if self.bytes.get(exponent).is_some_and(u8::is_ascii_digit) {
                    is_float = true;
                    end = exponent;
                    while self.bytes.get(end).is_some_and(u8::is_ascii_digit) {
                        end += 1;
                    }
                }
            }
        }
        self.at = end;
        let text = &self.text[start..end];
        if is_float {
            return text
                .parse::<f64>()
                .map(Token::Float)
                .map_err(|_| self.error(start, format!("malformed float `{text}`")));
        }
        let negative = self.bytes[start] == b'-';
        let magnitude = u64::from_str_radix(&self.text[body_start..end], radix)
            .ok()
            .and_then(|m| i128::from(m).checked_mul(if negative { -1 } else { 1 }))
            .and_then(|v| i64::try_from(v).ok());
        let _ = digits_start;
        magnitude
            .map(Token::Int)
            .ok_or_else(|| self.error(start, format!("integer `{text}` is out of range")))
    }
}

/// A recursive-descent parser over the lexer, with one token of look-ahead.
struct Parser<'a> {
    lexer: Lexer<'a>,
    peeked: Option<(Token<'a>, Pos)>,
}

impl<'a> Parser<'a> {
    fn peek(&mut self) -> Result<Token<'a>, Error> {
        if self.peeked.is_none() {
            self.peeked = Some(self.lexer.next()?);
        }
        Ok(self.peeked.expect("just filled").0)
    }

    fn next(&mut self) -> Result<(Token<'a>, Pos), Error> {
        match self.peeked.take() {
            Some(token) => Ok(token),
            None => self.lexer.next(),
        }
    }

    fn syntax(pos: Pos, message: String) -> Error {
        Error::Syntax {
            line: pos.line,
            column: pos.column,
            message,
        }
    }

    fn expect(&mut self, wanted: Token<'_>, what: &str) -> Result<Pos, Error> {
        let (token, pos) = self.next()?;
        if token == wanted {
            Ok(pos)
        } else {
            Err(Self::syntax(
                pos,
                format!("expected {what}, found {}", token.describe()),
            ))
        }
    }

    fn expect_keyword(&mut self, keyword: &str) -> Result<(), Error> {
        let (token, pos) = self.next()?;
        if token == Token::Ident(keyword) {
            Ok(())
        } else {
            Err(Self::syntax(
                pos,
                format!("expected `{keyword}`, found {}", token.describe()),
            ))
        }
    }

    fn int(&mut self) -> Result<i64, Error> {
        match self.next()? {
            (Token::Int(value), _) => Ok(value),
            (token, pos) => Err(Self::syntax(
                pos,
                format!("expected an integer, found {}", token.describe()),
            )),
        }
    }

    fn ident(&mut self) -> Result<&'a str, Error> {
        match self.next()? {
            (Token::Ident(name), _) => Ok(name),
            (token, pos) => Err(Self::syntax(
                pos,
                format!("expected a name, found {}", token.describe()),
            )),
        }
    }

    fn model(&mut self) -> Result<FlatZinc<'a>, Error> {
        let mut decls = Vec::new();
        let mut constraints = Vec::new();
        loop {
            match self.item()? {
                Item::Decl(decl) => decls.push(decl),
                Item::Constraint(constraint) => constraints.push(constraint),
                Item::Solve(solve) => {
                    return Ok(FlatZinc {
                        decls,
                        constraints,
                        solve,
                    });
                }
            }
        }
    }

    /// The next statement (predicate declarations skipped); the solve item is the last, and the
    /// file must end after it.
    fn item(&mut self) -> Result<Item<'a>, Error> {
        loop {
            let token = self.peek()?;
            let pos = self.peeked.expect("peeked").1;
            return Ok(match token {
                Token::Eof => {
                    return Err(Self::syntax(pos, "the file has no solve item".to_owned()));
                }
                Token::Ident("predicate") => {
                    self.skip_statement()?;
                    continue;
                }
                Token::Ident("constraint") => Item::Constraint(self.constraint()?),
                Token::Ident("solve") => {
                    let solve = self.solve()?;
                    let (token, pos) = self.next()?;
                    if token != Token::Eof {
                        return Err(Self::syntax(
                            pos,
                            format!(
                                "expected the end of the file after the solve item, found {}",
                                token.describe()
                            ),
                        ));
                    }
                    Item::Solve(solve)
                }
                _ => Item::Decl(self.decl()?),
            });
        }
    }

    /// Skips a predicate declaration: its parameters' types matter only to MiniZinc.
    fn skip_statement(&mut self) -> Result<(), Error> {
        loop {
            match self.next()? {
                (Token::Semicolon, _) => return Ok(()),
                (Token::Eof, pos) => {
                    return Err(Self::syntax(
                        pos,
                        "expected `;`, found the end of the file".to_owned(),
                    ));
                }
                _ => {}
            }
        }
    }

    fn decl(&mut self) -> Result<Decl<'a>, Error> {
        let pos = self.peeked.map(|(_, p)| p).unwrap_or_default();
        let ty = self.type_inst()?;
        self.expect(Token::Colon, "`:`")?;
        let name = self.ident()?;
        let annotations = self.annotations()?;
        let value = if self.peek()? == Token::Equals {
            self.next()?;
            Some(self.expr(0)?)
        } else {
            None
        };
        self.expect(Token::Semicolon, "`;`")?;
        Ok(Decl {
            pos,
            ty,
            name,
            annotations,
            value,
        })
    }

    fn type_inst(&mut self) -> Result<TypeInst, Error> {
        let mut array = None;
        if self.peek()? == Token::Ident("array") {
            self.next()?;
            self.expect(Token::LeftBracket, "`[`")?;
            let lo = self.int()?;
            self.expect(Token::DotDot, "`..`")?;
            let hi = self.int()?;
            self.expect(Token::RightBracket, "`]`")?;
            self.expect_keyword("of")?;
            array = Some((lo, hi));
        }
        let var = if self.peek()? == Token::Ident("var") {
            self.next()?;
            true
        } else {
            false
        };
        let (token, pos) = self.next()?;
        let domain = match token {
            Token::Ident("bool") => Domain::Bool,
            Token::Ident("int") => Domain::Int,
            Token::Ident("float") => Domain::Float,
            Token::Ident("set") => {
                self.expect_keyword("of")?;
                // The element type (`int`, a range or a set) says nothing the solver needs.
                match self.next()? {
                    (Token::Ident("int"), _) => {}
                    (Token::Int(_), _) => {
                        self.expect(Token::DotDot, "`..`")?;
                        self.int()?;
                    }
                    (Token::LeftBrace, _) => {
                        self.int_set_tail()?;
                    }
                    (token, pos) => {
                        return Err(Self::syntax(
                            pos,
                            format!(
                                "expected the element type of a set, found {}",
                                token.describe()
                            ),
                        ));
                    }
                }
                Domain::SetOfInt
            }
            Token::Int(lo) => {
                self.expect(Token::DotDot, "`..`")?;
                let hi = self.int()?;
                Domain::IntSet(if lo <= hi { vec![(lo, hi)] } else { Vec::new() })
            }
            Token::Float(_) => {
                self.expect(Token::DotDot, "`..`")?;
                match self.next()? {
                    (Token::Float(_) | Token::Int(_), _) => Domain::Float,
                    (token, pos) => {
                        return Err(Self::syntax(
                            pos,
                            format!("expected a float, found {}", token.describe()),
                        ));
                    }
                }
            }
            Token::LeftBrace => Domain::IntSet(self.int_set_tail()?),
            token => {
                return Err(Self::syntax(
                    pos,
                    format!("expected a type, found {}", token.describe()),
                ));
            }
        };
        Ok(TypeInst { array, var, domain })
    }

    /// The rest of `{a, b, …}` after its `{`.
    fn int_set_tail(&mut self) -> Result<Ranges, Error> {
        let mut values = Vec::new();
        if self.peek()? == Token::RightBrace {
            self.next()?;
            return Ok(Vec::new());
        }
        loop {
            values.push(self.int()?);
            match self.next()? {
                (Token::Comma, _) => {}
                (Token::RightBrace, _) => break,
                (token, pos) => {
                    return Err(Self::syntax(
                        pos,
                        format!("expected `,` or `}}`, found {}", token.describe()),
                    ));
                }
            }
        }
        Ok(ranges_from_values(values))
    }

    fn annotations(&mut self) -> Result<Vec<Expr<'a>>, Error> {
        let mut annotations = Vec::new();
        while self.peek()? == Token::DoubleColon {
            self.next()?;
            annotations.push(self.expr(0)?);
        }
        Ok(annotations)
    }

    fn constraint(&mut self) -> Result<ConstraintItem<'a>, Error> {
        let (_, pos) = self.next()?;
        let name = self.ident()?;
        self.expect(Token::LeftParen, "`(`")?;
        let args = self.list(Token::RightParen, "`)`", 1)?;
        let annotations = self.annotations()?;
        self.expect(Token::Semicolon, "`;`")?;
        Ok(ConstraintItem {
            pos,
            name,
            args,
            annotations,
        })
    }

    fn solve(&mut self) -> Result<SolveItem<'a>, Error> {
        let (_, pos) = self.next()?;
        let annotations = self.annotations()?;
        let goal = match self.next()? {
            (Token::Ident("satisfy"), _) => Goal::Satisfy,
            (Token::Ident("minimize"), _) => Goal::Minimize(self.expr(0)?),
            (Token::Ident("maximize"), _) => Goal::Maximize(self.expr(0)?),
            (token, pos) => {
                return Err(Self::syntax(
                    pos,
                    format!(
                        "expected `satisfy`, `minimize` or `maximize`, found {}",
                        token.describe()
                    ),
                ));
            }
        };
        self.expect(Token::Semicolon, "`;`")?;
        Ok(SolveItem {
            pos,
            annotations,
            goal,
        })
    }

    /// Expressions separated by commas up to `close` (already past the opening bracket).
    fn list(&mut self, close: Token<'_>, what: &str, depth: usize) -> Result<Vec<Expr<'a>>, Error> {
        let mut items = Vec::new();
        if self.peek()? == close {
            self.next()?;
            return Ok(items);
        }
        loop {
            items.push(self.expr(depth)?);
            let (token, pos) = self.next()?;
            if token == close {
                return Ok(items);
            }
            if token != Token::Comma {
                return Err(Self::syntax(
                    pos,
                    format!("expected `,` or {what}, found {}", token.describe()),
                ));
            }
        }
    }

    fn expr(&mut self, depth: usize) -> Result<Expr<'a>, Error> {
        let (token, pos) = self.next()?;
        if depth > MAX_DEPTH {
            return Err(Self::syntax(
                pos,
                format!("expressions nested deeper than {MAX_DEPTH} levels"),
            ));
        }
        Ok(match token {
            Token::Int(lo) => {
                if self.peek()? == Token::DotDot {
                    self.next()?;
                    let hi = self.int()?;
                    Expr::Set(if lo <= hi { vec![(lo, hi)] } else { Vec::new() })
                } else {
                    Expr::Int(lo)
                }
            }
            Token::Float(lo) => {
                if self.peek()? == Token::DotDot {
                    self.next()?;
                    match self.next()? {
                        (Token::Float(hi), _) => Expr::FloatRange(lo, hi),
                        (Token::Int(hi), _) => Expr::FloatRange(lo, hi as f64),
                        (token, pos) => {
                            return Err(Self::syntax(
                                pos,
                                format!("expected a float, found {}", token.describe()),
                            ));
                        }
                    }
                } else {
                    Expr::Float(lo)
                }
            }
            Token::LeftBrace => Expr::Set(self.int_set_tail()?),
            Token::LeftBracket => Expr::Array(self.list(Token::RightBracket, "`]`", depth + 1)?),
            Token::Str(text) => Expr::Str(text),
            Token::Ident("true") => Expr::Bool(true),
            Token::Ident("false") => Expr::Bool(false),
            Token::Ident(name) => match self.peek()? {
                Token::LeftParen => {
                    self.next()?;
                    Expr::Call(name, self.list(Token::RightParen, "`)`", depth + 1)?)
                }
                Token::LeftBracket => {
                    self.next()?;
                    let index = self.int()?;
                    self.expect(Token::RightBracket, "`]`")?;
                    Expr::Access(name, index)
                }
                _ => Expr::Ident(name),
            },
            token => {
                return Err(Self::syntax(
                    pos,
                    format!("expected an expression, found {}", token.describe()),
                ));
            }
        })
    }
}

/// Parses a whole FlatZinc model.
///
/// ```
/// let fzn = csp_flatzinc::parse("var 1..3: x :: output_var;\nconstraint int_le(x, 2);\nsolve satisfy;\n")?;
/// assert_eq!(fzn.decls[0].name, "x");
/// assert_eq!(fzn.constraints[0].name, "int_le");
/// # Ok::<(), csp_flatzinc::Error>(())
/// ```
pub fn parse(text: &str) -> Result<FlatZinc<'_>, Error> {
    Parser {
        lexer: Lexer::new(text),
        peeked: None,
    }
    .model()
}

/// One statement of a FlatZinc model.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Item<'a> {
    /// A parameter or variable.
    Decl(Decl<'a>),
    /// A constraint.
    Constraint(ConstraintItem<'a>),
    /// The solve item, always the last.
    Solve(SolveItem<'a>),
}

/// Reads a model one statement at a time, so that a compiler can turn each into the engine's
/// model and drop it before the next: the parsed form of the whole file is never held at once.
pub(crate) struct Items<'a> {
    parser: Parser<'a>,
    done: bool,
}

impl<'a> Items<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Items {
            parser: Parser {
                lexer: Lexer::new(text),
                peeked: None,
            },
            done: false,
        }
    }

    /// The next statement, or `None` after the solve item.
    pub(crate) fn next_item(&mut self) -> Result<Option<Item<'a>>, Error> {
        if self.done {
            return Ok(None);
        }
        let item = self.parser.item()?;
        self.done = matches!(item, Item::Solve(_));
        Ok(Some(item))
    }
}
