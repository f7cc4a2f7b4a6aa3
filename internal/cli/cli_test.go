package cli

import (
	"bytes"
	"strings"
	"testing"
)

func env(args ...string) Env {
	return Env{Args: args, Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Getenv: func(string) string { return "" }, Cwd: "/tmp"}
}

func TestLocalCommandsNeedNoDaemon(t *testing.T) {
	e := env("help", "goto")
	if code := Main(e); code != 0 || !strings.Contains(e.Stdout.(*bytes.Buffer).String(), "Usage: browse goto <url>") {
		t.Fatalf("help goto: %d %s", code, e.Stderr)
	}
	e = env("goto")
	if code := Main(e); code != 1 || !strings.Contains(e.Stderr.(*bytes.Buffer).String(), "Usage: browse goto") {
		t.Fatalf("usage error: %d %s", code, e.Stderr)
	}
	e = env()
	if code := Main(e); code != 1 || !strings.Contains(e.Stderr.(*bytes.Buffer).String(), "Usage: browse") {
		t.Fatal("no command should print help and fail")
	}
}

func TestResolveChainPaths(t *testing.T) {
	out, n := resolveChainPaths(`[["goto","https://x.test"],["screenshot","--viewport","shot.png"],["eval","s.js"]]`, "/work/dir")
	if n != 3 {
		t.Fatalf("counted %d steps", n)
	}
	if !strings.Contains(out, `"/work/dir/shot.png"`) || !strings.Contains(out, `"/work/dir/s.js"`) || !strings.Contains(out, `"https://x.test"`) {
		t.Fatalf("paths not resolved against the CLI's directory: %s", out)
	}
	if out, n := resolveChainPaths(`not json`, "/w"); out != "not json" || n != 1 {
		t.Fatalf("bad input changed: %q %d", out, n)
	}
}
