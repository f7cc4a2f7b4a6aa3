package commands

import (
	"strconv"
	"strings"
)

// Parse splits raw arguments into flags and positional arguments according to
// the command's declaration. "--" ends flags. "--flag=value" and
// "--flag value" are both accepted. Undeclared dash words are a usage error,
// except for FreeText commands, where they are text.
func Parse(cmd *Command, raw []string) (args []string, flags map[string]string, err error) {
	flags = map[string]string{}
	for i := 0; i < len(raw); i++ {
		a := raw[i]
		if a == "--" {
			args = append(args, raw[i+1:]...)
			break
		}
		if !looksLikeFlag(a) {
			args = append(args, a)
			continue
		}
		name, value, hasValue := strings.Cut(a, "=")
		f := cmd.flag(name)
		if f == nil {
			if cmd.FreeText {
				args = append(args, a)
				continue
			}
			return nil, nil, UsageError(cmd, "Unknown flag %q for '%s'.", name, cmd.Name)
		}
		switch {
		case f.Value == "" && hasValue:
			return nil, nil, UsageError(cmd, "Flag %s takes no value.", name)
		case f.Value != "" && !hasValue:
			if i+1 >= len(raw) {
				return nil, nil, UsageError(cmd, "Flag %s needs a value (%s).", name, f.Value)
			}
			i++
			value = raw[i]
		}
		if prev, ok := flags[name]; ok && f.Repeat {
			value = prev + "\n" + value
		}
		flags[name] = value
	}
	if len(args) < cmd.MinArgs {
		return nil, nil, UsageError(cmd, "'%s' needs %s.", cmd.Name, argCount(cmd.MinArgs))
	}
	if cmd.MaxArgs >= 0 && len(args) > cmd.MaxArgs {
		return nil, nil, UsageError(cmd, "'%s' takes at most %s, got %d.", cmd.Name, argCount(cmd.MaxArgs), len(args))
	}
	return args, flags, nil
}

// looksLikeFlag: "-x" or "--word", but not "-" alone or a negative number.
func looksLikeFlag(a string) bool {
	if len(a) < 2 || a[0] != '-' {
		return false
	}
	c := a[1]
	if c == '-' {
		return len(a) > 2
	}
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func argCount(n int) string {
	if n == 1 {
		return "1 argument"
	}
	return strconv.Itoa(n) + " arguments"
}

func (c *Command) flag(name string) *Flag {
	for i := range c.Flags {
		if c.Flags[i].Name == name {
			return &c.Flags[i]
		}
	}
	return nil
}
