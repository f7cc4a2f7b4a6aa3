package browser

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/chromedp/cdproto/input"

	"github.com/browsehq/browse/internal/cdp"
)

// keyDef describes a key the way Input.dispatchKeyEvent wants it.
type keyDef struct {
	key     string
	code    string
	keyCode int64
	text    string
}

// namedKeys are Playwright's key names (and a few common aliases).
var namedKeys = map[string]keyDef{
	"Enter": {"Enter", "Enter", 13, "\r"}, "Tab": {"Tab", "Tab", 9, ""}, "Escape": {"Escape", "Escape", 27, ""},
	"Backspace": {"Backspace", "Backspace", 8, ""}, "Delete": {"Delete", "Delete", 46, ""}, "Insert": {"Insert", "Insert", 45, ""},
	"ArrowUp": {"ArrowUp", "ArrowUp", 38, ""}, "ArrowDown": {"ArrowDown", "ArrowDown", 40, ""},
	"ArrowLeft": {"ArrowLeft", "ArrowLeft", 37, ""}, "ArrowRight": {"ArrowRight", "ArrowRight", 39, ""},
	"Home": {"Home", "Home", 36, ""}, "End": {"End", "End", 35, ""}, "PageUp": {"PageUp", "PageUp", 33, ""}, "PageDown": {"PageDown", "PageDown", 34, ""},
	"Space": {" ", "Space", 32, " "}, "Shift": {"Shift", "ShiftLeft", 16, ""}, "Control": {"Control", "ControlLeft", 17, ""},
	"Alt": {"Alt", "AltLeft", 18, ""}, "Meta": {"Meta", "MetaLeft", 91, ""},
}

var keyAliases = map[string]string{
	"Return": "Enter", "Esc": "Escape", "Ctrl": "Control", "Cmd": "Meta", "Command": "Meta", "Option": "Alt",
	"Up": "ArrowUp", "Down": "ArrowDown", "Left": "ArrowLeft", "Right": "ArrowRight", "Del": "Delete",
}

var modifierBits = map[string]int64{"Alt": 1, "Control": 2, "Meta": 4, "Shift": 8}

// punctuation maps US-layout characters to their physical key.
var punctuation = map[rune]keyDef{
	'-': {"-", "Minus", 189, "-"}, '=': {"=", "Equal", 187, "="}, '[': {"[", "BracketLeft", 219, "["}, ']': {"]", "BracketRight", 221, "]"},
	'\\': {"\\", "Backslash", 220, "\\"}, ';': {";", "Semicolon", 186, ";"}, '\'': {"'", "Quote", 222, "'"}, ',': {",", "Comma", 188, ","},
	'.': {".", "Period", 190, "."}, '/': {"/", "Slash", 191, "/"}, '`': {"`", "Backquote", 192, "`"},
}

// lookupKey resolves one key name or character.
func lookupKey(name string) (keyDef, bool) {
	if a, ok := keyAliases[name]; ok {
		name = a
	}
	if k, ok := namedKeys[name]; ok {
		return k, true
	}
	if len(name) >= 2 && len(name) <= 3 && name[0] == 'F' {
		var n int
		if _, err := fmt.Sscanf(name[1:], "%d", &n); err == nil && n >= 1 && n <= 12 {
			return keyDef{name, name, int64(111 + n), ""}, true
		}
	}
	r := []rune(name)
	if len(r) != 1 {
		return keyDef{}, false
	}
	return charKey(r[0])
}

func charKey(c rune) (keyDef, bool) {
	switch {
	case c >= 'a' && c <= 'z':
		return keyDef{string(c), "Key" + string(unicode.ToUpper(c)), int64(unicode.ToUpper(c)), string(c)}, true
	case c >= 'A' && c <= 'Z':
		return keyDef{string(c), "Key" + string(c), int64(c), string(c)}, true
	case c >= '0' && c <= '9':
		return keyDef{string(c), "Digit" + string(c), int64(c), string(c)}, true
	case c == ' ':
		return namedKeys["Space"], true
	case c == '\n' || c == '\r':
		return namedKeys["Enter"], true
	case c == '\t':
		return namedKeys["Tab"], true
	}
	k, ok := punctuation[c]
	return k, ok
}

// editingCommands make Chromium perform the editing a shortcut stands for;
// synthetic key events alone do not trigger the platform's key bindings.
var editingCommands = map[string]string{"a": "selectAll", "c": "copy", "x": "cut", "v": "paste", "z": "undo", "y": "redo"}

// ParseKeyCombo checks a combo like "Shift+Enter" or "Control+A".
func ParseKeyCombo(combo string) (mods []string, key keyDef, err error) {
	parts := strings.Split(combo, "+")
	if strings.HasSuffix(combo, "++") || combo == "+" { // the "+" key itself
		parts = append(parts[:len(parts)-2], "+")
	}
	for i, p := range parts {
		if a, ok := keyAliases[p]; ok {
			p = a
		}
		if i < len(parts)-1 {
			if _, ok := modifierBits[p]; !ok {
				return nil, keyDef{}, fmt.Errorf("%q is not a modifier (Shift, Control, Alt, Meta)", p)
			}
			mods = append(mods, p)
			continue
		}
		k, ok := lookupKey(p)
		if !ok {
			if p == "+" {
				return mods, keyDef{"+", "Equal", 187, "+"}, nil
			}
			return nil, keyDef{}, fmt.Errorf("unknown key %q", p)
		}
		key = k
	}
	return mods, key, nil
}

// Press presses a key combo in the page, as a user would: modifiers down,
// the key down and up, modifiers up.
func (t *Tab) Press(ctx context.Context, combo string) error {
	mods, key, err := ParseKeyCombo(combo)
	if err != nil {
		return err
	}
	var bits int64
	var calls []cdp.PipelinedCall
	for _, m := range mods {
		bits |= modifierBits[m]
		k := namedKeys[m]
		calls = append(calls, keyCall(input.DispatchKeyEventTypeRawKeyDown, k, bits, ""))
	}
	text := key.text
	if bits&(1|2|4) != 0 {
		text = "" // a shortcut types nothing
	} else if bits&8 != 0 && len(text) == 1 {
		text = strings.ToUpper(text)
	}
	down := keyCall(input.DispatchKeyEventTypeKeyDown, key, bits, text)
	if text == "" {
		down = keyCall(input.DispatchKeyEventTypeRawKeyDown, key, bits, "")
	}
	if bits&(2|4) != 0 {
		if cmd := editingCommands[strings.ToLower(key.key)]; cmd != "" {
			down.Params.(*input.DispatchKeyEventParams).Commands = []string{cmd}
		}
	}
	calls = append(calls, down, keyCall(input.DispatchKeyEventTypeKeyUp, key, bits, ""))
	for i := len(mods) - 1; i >= 0; i-- {
		bits &^= modifierBits[mods[i]]
		calls = append(calls, keyCall(input.DispatchKeyEventTypeKeyUp, namedKeys[mods[i]], bits, ""))
	}
	return t.Session.Pipeline(ctx, calls...)
}

// Type types text into the focused element key by key (so key handlers see
// every keystroke), pipelined into one round trip. Characters with no key on
// a US keyboard are inserted as text.
func (t *Tab) Type(ctx context.Context, text string) error {
	var calls []cdp.PipelinedCall
	for _, c := range text {
		k, ok := charKey(c)
		if !ok {
			calls = append(calls, cdp.PipelinedCall{Method: "Input.insertText", Params: &input.InsertTextParams{Text: string(c)}})
			continue
		}
		var bits int64
		if unicode.IsUpper(c) {
			bits = 8
		}
		calls = append(calls, keyCall(input.DispatchKeyEventTypeKeyDown, k, bits, k.text), keyCall(input.DispatchKeyEventTypeKeyUp, k, bits, ""))
	}
	return t.Session.Pipeline(ctx, calls...)
}

func keyCall(typ input.DispatchKeyEventType, k keyDef, mods int64, text string) cdp.PipelinedCall {
	return cdp.PipelinedCall{Method: "Input.dispatchKeyEvent", Params: &input.DispatchKeyEventParams{
		Type: typ, Key: k.key, Code: k.code, WindowsVirtualKeyCode: k.keyCode, Modifiers: mods, Text: text, UnmodifiedText: text,
	}}
}
