package hotpath

//go:generate sh -c "go run ./gen > commands_gen.go"

// command is what the fast path knows of a command: its own name (for an
// alias) and whether only the full CLI may run it.
type command struct {
	name    string
	cliOnly bool
}
