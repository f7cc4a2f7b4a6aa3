// Package version holds the build version stamped in by the linker.
//
// The CLI compares it with the running daemon's binaryVersion and restarts a
// daemon that was started by a different build.
package version

// Version is set with -ldflags "-X github.com/browsehq/browse/internal/version.Version=…".
// The Makefile stamps the git commit plus a hash of any uncommitted diff, so a
// rebuild after an edit is a new version.
var Version = "dev"
