package state

import (
	"os"
	"path/filepath"
	"testing"
)

func TestResolveUsesGitRootAndSession(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "a", "b")
	os.MkdirAll(sub, 0o755)
	os.Mkdir(filepath.Join(root, ".git"), 0o755)

	p := Resolve(sub, "", "")
	if want := filepath.Join(root, ".gstack", "browse.json"); p.StateFile != want {
		t.Fatalf("StateFile = %s, want %s", p.StateFile, want)
	}
	p = Resolve(sub, "agent1", "")
	if want := filepath.Join(root, ".gstack", "browse-agent1.json"); p.StateFile != want {
		t.Fatalf("session StateFile = %s, want %s", p.StateFile, want)
	}
	if want := filepath.Join(root, ".gstack", "browse-agent1-daemon.log"); p.LogFile != want {
		t.Fatalf("LogFile = %s, want %s", p.LogFile, want)
	}
	p = Resolve(sub, "", "custom/st.json")
	if want := filepath.Join(sub, "custom", "st.json"); p.StateFile != want {
		t.Fatalf("override StateFile = %s, want %s", p.StateFile, want)
	}
}

func TestWriteIsPrivateAndReadable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".gstack")
	path := filepath.Join(dir, "browse.json")
	if err := Write(path, &File{PID: 42, Port: 12345, Token: "t"}); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("state file mode %v, want 0600", fi.Mode().Perm())
	}
	di, _ := os.Stat(dir)
	if di.Mode().Perm() != 0o700 {
		t.Fatalf("dir mode %v, want 0700", di.Mode().Perm())
	}
	if data, _ := os.ReadFile(filepath.Join(dir, ".gitignore")); string(data) != "*\n" {
		t.Fatalf(".gitignore = %q", data)
	}
	f, err := Read(path)
	if err != nil || f.PID != 42 || f.Port != 12345 {
		t.Fatalf("Read = %+v, %v", f, err)
	}
	RemoveIfOwned(path, 7) // not ours: must stay
	if _, err := os.Stat(path); err != nil {
		t.Fatal("RemoveIfOwned removed another daemon's file")
	}
	RemoveIfOwned(path, 42)
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("RemoveIfOwned kept our own file")
	}
}

func TestValidSession(t *testing.T) {
	for _, ok := range []string{"", "a", "agent-1.x_y"} {
		if ValidSession(ok) != nil {
			t.Errorf("%q rejected", ok)
		}
	}
	for _, bad := range []string{"../x", "a/b", "-x", "a b"} {
		if ValidSession(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestDaemonAliveRejectsNonDaemon(t *testing.T) {
	if DaemonAlive(os.Getpid()) {
		t.Fatal("the test process is not a daemon")
	}
	if DaemonAlive(0) || DaemonAlive(1<<30) {
		t.Fatal("bogus pids reported alive")
	}
}
