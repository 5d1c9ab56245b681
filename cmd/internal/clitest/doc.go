// Package clitest holds the test scaffolding that the tests of gwctl and
// gwlint share:
//
//   - Golden, the golden files under a command's testdata/golden, which
//     the -update flag rewrites, and Golden.RunCases, a table of runs
//     whose output they hold;
//   - Run and Streams, which run a command in-process with buffers for its
//     streams, Discard, streams for tests that only parse flags, and
//     RunCases, a table of runs and the exit status and output each must
//     give; Examples, the bundled example tree;
//   - Execute and RunFlagCases, which parse a command's flags with an
//     injected runF (see cli.RunE) and compare the options it received;
//   - CheckExamples and Doc, which keep the commands' help and their
//     reference documentation in step with the code;
//   - CheckManPages, which checks the man pages a command writes and
//     that the release installs them;
//   - ReadSamples, CheckSampleMarks and CheckSamples, which keep every
//     sample output in README.md and docs/ what its command prints;
//   - Git, which builds a test's repository, and Commit, which writes a
//     commit as a hostile pull request can: tree entries git itself would
//     refuse to write;
//   - Main and Command, which run a command's test binary as the command
//     itself, a process that a test can signal.
//
// It is imported only by tests.
package clitest
