// Package cli holds the command-line plumbing that gwctl and gwlint share,
// so that both commands behave alike wherever they do the same thing:
//
//   - IOStreams, a command's standard streams and the terminal facts that
//     colour depends on, and System, which fills them from the process;
//   - the --color flag (AddColorFlag, CheckColor), its modes, ColorEnabled,
//     which honours the terminal and NO_COLOR, and NewColor, one colour
//     switched on or off without touching fatih/color's global;
//   - OneOf, the check of a flag value against its allowed values, and
//     the input flags whose names, defaults and meanings are the same in
//     both commands: AddStrictRefsFlag and AddImplementationFlags (with
//     Implementation.Profile, which looks the selection up);
//   - the exit statuses both commands give the same meaning (ExitOK,
//     ExitUsage), ExitError, Errorf and OutputError;
//   - SetupRoot and Run, which make a root command quiet and turn its
//     error into an exit status and a message on stderr, and give it the
//     version command and the hidden man command (man pages, for release
//     archives);
//   - Main, which runs a command as the process, and RemovedOnSignal,
//     which registers a temporary file or directory that a signal ending
//     the process (SIGINT, SIGTERM, SIGHUP; a closed stdout) must not
//     leave behind;
//   - ReplaceFile, which writes a file the command produces (a baseline, a
//     man page) by renaming a new file over it, never through a link;
//   - RunE, the convention by which tests inject a runF to see the options
//     a command parsed;
//   - WriteJSON, the JSON encoding of machine output;
//   - Escape, which every text output applies to what comes from the
//     inputs (file and object names, messages), so that a pull request
//     cannot write control characters, line breaks or bidi overrides into
//     a CI log or a terminal, and EscapeJSON, its counterpart in JSON.
//
// What differs between the commands stays with them: their output formats
// and palettes, what exit status 1 means, where their input comes from
// (gwctl's -f/--filename, gwlint's positional paths), what -n/--namespace
// says and overrides, and whether a failure to write output is exit 1
// (gwctl) or 2 (gwlint).
package cli
