package hotpath

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/browsehq/browse/internal/state"
)

// Globals are the global flags, which go before the command (--tab-id may
// also follow it). The fast path and the full CLI read them alike.
type Globals struct {
	Session string
	CDPURL  string
	TabID   int
	Timeout int // ms; 0 = the command's default
}

// ParseGlobals reads the global flags in front of the command, and --tab-id
// wherever it stands (agents write it after the command too), over the
// BROWSE_SESSION and BROWSE_CDP_URL defaults; rest is the command and its
// arguments.
func ParseGlobals(args []string, getenv func(string) string) (Globals, []string, error) {
	o := Globals{Session: getenv("BROWSE_SESSION"), CDPURL: getenv("BROWSE_CDP_URL")}
	i := 0
	for ; i < len(args); i++ {
		name, value, hasValue := strings.Cut(args[i], "=")
		if !isGlobalFlag(name) {
			break
		}
		if !hasValue {
			if i+1 >= len(args) {
				return o, nil, fmt.Errorf("%s needs a value", name)
			}
			i++
			value = args[i]
		}
		if err := o.set(name, value); err != nil {
			return o, nil, err
		}
	}
	rest := append([]string(nil), args[i:]...)
	for j := 1; j < len(rest) && rest[j] != "--"; j++ {
		name, value, hasValue := strings.Cut(rest[j], "=")
		if name != "--tab-id" {
			continue
		}
		drop := 1
		if !hasValue && j+1 < len(rest) {
			value, drop = rest[j+1], 2
		}
		if err := o.set(name, value); err != nil {
			return o, nil, err
		}
		rest = append(rest[:j], rest[j+drop:]...)
		j--
	}
	if err := state.ValidSession(o.Session); err != nil {
		return o, nil, err
	}
	return o, rest, nil
}

func isGlobalFlag(name string) bool {
	switch name {
	case "--session", "--cdp-url", "--tab-id", "--timeout":
		return true
	}
	return false
}

func (o *Globals) set(name, value string) error {
	switch name {
	case "--session":
		o.Session = value
	case "--cdp-url":
		o.CDPURL = value
	case "--tab-id", "--timeout":
		n, err := strconv.Atoi(value)
		if err != nil || n <= 0 {
			return fmt.Errorf("%s takes a positive number, got %q", name, value)
		}
		if name == "--tab-id" {
			o.TabID = n
		} else {
			o.Timeout = n
		}
	}
	return nil
}
