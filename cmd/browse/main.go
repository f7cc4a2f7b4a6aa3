// Command browse is both the CLI (browse <command> [args]) and, as
// `browse serve`, the daemon the CLI starts.
package main

import (
	"os"

	"github.com/browsehq/browse/internal/cli"
	"github.com/browsehq/browse/internal/daemon"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		os.Exit(daemon.Main(os.Args[2:]))
	}
	cwd, _ := os.Getwd()
	os.Exit(cli.Main(cli.Env{Args: os.Args[1:], Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Cwd: cwd}))
}
