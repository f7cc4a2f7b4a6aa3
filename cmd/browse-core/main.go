// Command browse-core is the full CLI (browse-core <command> [args]) and,
// as `browse-core serve`, the daemon the CLI starts. Users run `browse`,
// which sends warm commands itself and hands everything else to this one.
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
