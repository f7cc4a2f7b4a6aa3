// Command browse is what agents run. A plain command for a daemon that is
// already up goes straight to it (internal/hotpath), with little more than
// a process start to pay; everything else — starting the daemon, help,
// chain, errors the CLI explains — is handed to browse-core, installed
// beside this binary, with the same arguments.
package main

import (
	"os"
	"path/filepath"
	"syscall"

	"github.com/browsehq/browse/internal/hotpath"
)

func main() {
	cwd, _ := os.Getwd()
	if code, handled := hotpath.Run(hotpath.Env{Args: os.Args[1:], Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Cwd: cwd}); handled {
		os.Exit(code)
	}
	core := corePath()
	err := syscall.Exec(core, append([]string{core}, os.Args[1:]...), os.Environ())
	os.Exit(hotpath.Fail(os.Stderr, "cannot run "+core+": "+err.Error()+".",
		"browse needs browse-core beside it: build both with 'make build', or install both with 'go install ./cmd/...'."))
}

// corePath is browse-core in this executable's directory (symlinks
// followed, so a linked browse finds its own).
func corePath() string {
	exe, err := os.Executable()
	if err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
	}
	return filepath.Join(filepath.Dir(exe), "browse-core")
}
