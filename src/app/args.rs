//! The command line, as both binaries parse it: help and version answered, every other clap error
//! folded to one line, and the value parsers they share.

use std::ffi::OsString;

use clap::Parser;
use clap::error::ErrorKind;

use super::error::CliError;
use super::exit::Exit;

/// What parsing the command line left to do.
#[derive(Debug)]
pub enum Parsed<P> {
    /// Run with these arguments.
    Run(P),
    /// Nothing: help or the version was printed, and the program ends with this code.
    Done(Exit),
}

/// Parses `args` (the program's name first). Help and the version are printed and answered (exit
/// 0), as is the help clap shows for a missing subcommand (exit 2, as bad input); every other error
/// is a usage error of one line ([`one_line`]).
pub fn parse<P: Parser>(args: impl IntoIterator<Item = OsString>) -> Result<Parsed<P>, CliError> {
    let error = match P::try_parse_from(args) {
        Ok(parsed) => return Ok(Parsed::Run(parsed)),
        Err(error) => error,
    };
    let exit = match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => Exit::Answered,
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => Exit::BadInput,
        _ => return Err(CliError::Usage(one_line(&error))),
    };
    let _ = error.print();
    Ok(Parsed::Done(exit))
}

/// Folds a clap error into one line: its message, with the lines that follow it (a missing
/// argument's name, a tip naming a similar argument) joined on, and without the usage and help
/// that clap appends.
pub fn one_line(error: &clap::Error) -> String {
    let text = error.to_string();
    let message = text.split("\n\nUsage:").next().unwrap_or_default();
    let message = message
        .split("\n\nFor more information")
        .next()
        .unwrap_or_default();
    let words: Vec<&str> = message.split_whitespace().collect();
    let line = words
        .join(" ")
        .trim_start_matches("error: ")
        .trim_end_matches(':')
        .to_owned();
    if line.is_empty() {
        "invalid arguments".to_owned()
    } else {
        line
    }
}

/// A time limit in milliseconds: a whole number, 0 or more (FlatZinc's `-t`).
pub fn milliseconds(text: &str) -> Result<u64, String> {
    text.parse().map_err(|_| {
        format!("the time limit is a whole number of milliseconds, 0 or more, not `{text}`")
    })
}

/// `on` or `off`.
pub fn on_off(text: &str) -> Result<bool, String> {
    match text {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("`on` or `off`, not `{text}`")),
    }
}

/// A count that must be at least 1 (`-n`, `-p`).
pub fn at_least_one(text: &str) -> Result<u64, String> {
    match text.parse() {
        Ok(0) | Err(_) => Err(format!(
            "a whole number, 1 or more, is needed, not `{text}`"
        )),
        Ok(count) => Ok(count),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A command line with what both binaries have: a required file, a limit, counts, a switch.
    #[derive(Debug, Parser)]
    #[command(name = "example")]
    struct Args {
        #[arg(value_name = "FILE")]
        file: String,
        #[arg(short = 't', long = "time-limit", allow_negative_numbers = true,
              value_parser = milliseconds)]
        time_limit: Option<u64>,
        #[arg(short = 'n', long = "num-solutions", value_parser = at_least_one)]
        solutions: Option<u64>,
        #[arg(long, value_parser = on_off, action = clap::ArgAction::Set)]
        lns: Option<bool>,
        #[arg(long)]
        all_solutions: bool,
    }

    fn error(args: &[&str]) -> String {
        let Err(CliError::Usage(message)) = parse::<Args>(args.iter().map(OsString::from)) else {
            panic!("{args:?} is a usage error");
        };
        message
    }

    #[test]
    fn each_usage_error_is_one_line_that_names_the_problem() {
        let missing = error(&["example"]);
        assert_eq!(
            missing,
            "the following required arguments were not provided: <FILE>"
        );
        let negative = error(&["example", "-t", "-5", "m.fzn"]);
        assert!(
            negative.contains("time limit") && negative.contains("`-5`"),
            "{negative}"
        );
        let zero = error(&["example", "-n", "0", "m.fzn"]);
        assert!(
            zero.contains("1 or more") && zero.contains("--num-solutions"),
            "{zero}"
        );
        let switch = error(&["example", "--lns", "maybe", "m.fzn"]);
        assert!(switch.contains("`on` or `off`"), "{switch}");
        // A tip from clap stays on the line: it names what was probably meant.
        let typo = error(&["example", "--all-solution", "m.fzn"]);
        assert!(
            typo.starts_with("unexpected argument '--all-solution' found"),
            "{typo}"
        );
        assert!(typo.contains("--all-solutions"), "{typo}");
        for message in [missing, negative, zero, switch, typo] {
            assert!(!message.contains('\n'), "{message}");
        }
    }

    #[test]
    fn the_arguments_parse() {
        let Ok(Parsed::Run(args)) =
            parse::<Args>(["example", "-t", "5", "--lns", "off", "m"].map(OsString::from))
        else {
            panic!("the arguments are right");
        };
        assert_eq!(
            (args.time_limit, args.lns, args.file.as_str()),
            (Some(5), Some(false), "m")
        );
    }
}
