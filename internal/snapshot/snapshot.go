// Package snapshot renders accessibility trees as the indented text an agent
// reads: one line per element, "@e3 [button] "Sign up" [disabled]", two
// spaces per level, with iframe documents inline under their iframe. It is
// pure: the browser package fetches the trees and resolves the refs.
package snapshot

import (
	"fmt"
	"strconv"
	"strings"
)

// Node is the part of an accessibility node the renderer needs.
type Node struct {
	ID       string
	Role     string
	Name     string
	Value    string
	Props    []Prop
	Ignored  bool
	Children []string
	// Key identifies the element within its Frame: its backend node id in a
	// tree from getFullAXTree, its key in Frame.World in a walker's tree.
	Key int64  `json:"BackendID"`
	URL string // a link's target, shown when the link has no name
}

// Prop is one state property: "checked"="true", "level"="2".
type Prop struct{ Name, Value string }

// Frame is one document's tree. Nodes[0] is its root. Children maps an
// iframe element's backend id to the tree of the document inside it.
type Frame struct {
	ID  string // the frame id, carried into refs
	URL string // the document's URL, shown on its iframe's line
	// World is the isolated world whose keys the nodes carry (see Node.Key);
	// 0 when the keys are backend node ids.
	World    int64 `json:",omitempty"`
	Nodes    []Node
	Children map[int64]*Frame
	// Boxes are the elements' layout boxes in the top viewport's CSS pixels,
	// by key; only measured for --viewport. An element without one
	// (no layout box, or a frame that was not measured) counts as wherever
	// its parent is.
	Boxes map[int64]Box `json:",omitempty"`
}

// Box is a rectangle in CSS pixels.
type Box struct{ X, Y, W, H float64 }

// meets reports whether b and a overlap or touch (an empty box is a point).
func (b Box) meets(a Box) bool {
	return b.X <= a.X+a.W && a.X <= b.X+b.W && b.Y <= a.Y+a.H && a.Y <= b.Y+b.H
}

// Options are the snapshot flags that shape the text.
type Options struct {
	Interactive bool // -i: interactive elements only, flat
	Compact     bool // -c: drop unnamed structure
	MaxDepth    int  // -d N: 0 means no limit
	NoRefs      bool // the accessibility command: the tree without refs
	// ScopeBackendID (-s) renders only the subtree of this element (by
	// Node.Key, so for trees from getFullAXTree).
	ScopeBackendID int64
	// Area (--viewport), when set, keeps only elements whose box meets it,
	// plus the ancestors of those; the rest are counted in Result.Away.
	Area *Box
}

// Ref is what a ref stands for.
type Ref struct {
	ID      string // "e3"
	FrameID string
	World   int64 // see Frame.World
	Key     int64 // see Node.Key
	Role    string
	Name    string
}

// IDs hands out ref numbers that stay the same for the same element across
// snapshots of one page, so diffs show real changes and earlier refs keep
// working while their element lives.
type IDs struct {
	next   int
	byNode map[string]int
}

func (ids *IDs) id(frame string, world, element int64) string {
	if ids.byNode == nil {
		ids.byNode = make(map[string]int)
	}
	key := frame + "/" + strconv.FormatInt(world, 10) + "/" + strconv.FormatInt(element, 10)
	n, ok := ids.byNode[key]
	if !ok {
		ids.next++
		n = ids.next
		ids.byNode[key] = n
	}
	return "e" + strconv.Itoa(n)
}

// Result is a rendered snapshot.
type Result struct {
	Text  string
	Refs  []Ref
	Found bool // the scope element was found (only meaningful with ScopeBackendID)
	Away  int  // lines left out because their elements lie outside Options.Area
}

// interactive roles get listed by -i.
var interactive = map[string]bool{
	"button": true, "link": true, "textbox": true, "searchbox": true, "checkbox": true,
	"radio": true, "combobox": true, "listbox": true, "option": true, "menuitem": true,
	"menuitemcheckbox": true, "menuitemradio": true, "slider": true, "spinbutton": true,
	"switch": true, "tab": true, "treeitem": true, "MenuListOption": true, "textField": true,
	"Date": true, "DateTime": true, "InputTime": true, "ColorWell": true,
}

// leaves are widgets whose insides are the browser's own (user-agent shadow
// DOM): listing their spin buttons would be noise.
var leaves = map[string]bool{"Date": true, "DateTime": true, "InputTime": true, "ColorWell": true}

// structural roles carry no meaning of their own when unnamed.
var transparent = map[string]bool{
	"generic": true, "none": true, "presentation": true, "": true, "LineBreak": true,
	"RootWebArea": true, "WebArea": true, "MenuListPopup": true, "LabelText": true,
}

type out struct {
	role     string // as displayed
	name     string // the element's name, or a text line's text
	text     bool
	line     string
	ref      *Ref // set for element lines that get a ref; its ID is given when written
	children []*out
	target   string // a link's URL, for folding repeats
	keep     bool   // has content of its own (a name, a ref worth keeping, text)
	away     bool   // outside Options.Area
	reach    int8   // memo for reachesArea: 0 unknown, 1 yes, -1 no
}

type renderer struct {
	opts  Options
	ids   *IDs
	refs  []Ref
	found bool
	away  int
}

// Render turns a frame tree into text and refs.
func Render(root *Frame, opts Options, ids *IDs) Result {
	if ids == nil {
		ids = &IDs{}
	}
	r := &renderer{opts: opts, ids: ids}
	var top []*out
	if len(root.Nodes) > 0 {
		index := indexOf(root)
		if opts.ScopeBackendID != 0 {
			if f, n := findBackend(root, opts.ScopeBackendID); n != nil {
				r.found = true
				top = r.node(root, f, index, n.ID, parentText{}, true)
			}
		} else {
			top = r.node(root, root, index, root.Nodes[0].ID, parentText{}, true)
		}
	}
	if opts.Interactive && opts.Area == nil {
		top = foldRepeats(top)
	}
	var b strings.Builder
	r.write(&b, top, 0)
	return Result{Text: strings.TrimRight(b.String(), "\n"), Refs: r.refs, Found: r.found, Away: r.away}
}

type located struct {
	frame *Frame
	node  *Node
}

// indexOf maps "frameID/nodeID" → node, across all frames.
func indexOf(root *Frame) map[string]located {
	m := make(map[string]located)
	var add func(f *Frame)
	add = func(f *Frame) {
		for i := range f.Nodes {
			m[f.ID+"/"+f.Nodes[i].ID] = located{f, &f.Nodes[i]}
		}
		for _, c := range f.Children {
			add(c)
		}
	}
	add(root)
	return m
}

// findBackend finds the node for a DOM element, and the frame holding it.
func findBackend(f *Frame, backend int64) (*Frame, *Node) {
	for i := range f.Nodes {
		if f.Nodes[i].Key == backend {
			return f, &f.Nodes[i]
		}
	}
	for _, c := range f.Children {
		if cf, n := findBackend(c, backend); n != nil {
			return cf, n
		}
	}
	return nil, nil
}

// parentText is what a node's text children would only repeat.
type parentText struct{ name, value string }

// node renders one node (and its subtree) into zero or more output nodes:
// nodes that are not shown pass their children up. near says whether the
// parent lies in Options.Area: a node without a box of its own (and an
// out-of-process frame's whole document) goes with it.
func (r *renderer) node(root, f *Frame, index map[string]located, id string, parent parentText, near bool) []*out {
	loc, ok := index[f.ID+"/"+id]
	if !ok {
		return nil
	}
	n := loc.node
	if r.opts.Area != nil && n.Key != 0 {
		if b, ok := f.Boxes[n.Key]; ok {
			near = b.meets(*r.opts.Area)
		}
	}
	kids := func(p parentText) []*out {
		var list []*out
		for _, c := range n.Children {
			list = append(list, r.node(root, f, index, c, p, near)...)
		}
		list = dropEchoes(list)
		if n.Role == "Iframe" || n.Role == "iframe" {
			if child := f.Children[n.Key]; child != nil && len(child.Nodes) > 0 {
				list = append(list, r.node(root, child, index, child.Nodes[0].ID, parentText{}, near)...)
			}
		}
		return list
	}
	role := n.Role
	switch {
	case role == "InlineTextBox" || role == "ListMarker":
		return nil
	case n.Ignored:
		return kids(parent)
	case role == "StaticText":
		text := strings.TrimSpace(collapse(n.Name))
		if r.opts.Interactive || text == "" || text == parent.name || (parent.value != "" && text == parent.value) {
			return nil
		}
		return []*out{{line: "[text] " + quote(text), keep: true, text: true, name: text, away: !near}}
	}
	name := strings.TrimSpace(collapse(n.Name))
	isIframe := role == "Iframe" || role == "iframe"
	show := !transparent[role] || (name != "" && role != "RootWebArea")
	if r.opts.Interactive {
		show = interactive[role] || isIframe
	} else if r.opts.Compact && !interactive[role] && !isIframe && name == "" && role != "heading" {
		show = false
	}
	if !show {
		return kids(parent)
	}
	// Under -i an iframe line only heads the interactive elements inside it.
	o := &out{keep: !(r.opts.Interactive && isIframe), name: name, role: displayRole(role), away: !near}
	if role == "link" {
		o.target = n.URL
	}
	if !r.opts.NoRefs && n.Key != 0 {
		o.ref = &Ref{FrameID: f.ID, World: f.World, Key: n.Key, Role: displayRole(role), Name: name}
	}
	var line strings.Builder
	line.WriteString("[" + displayRole(role) + "]")
	if name != "" {
		line.WriteString(" " + quote(name))
	} else if role == "link" && n.URL != "" {
		// An unnamed link (an icon, an image without alt) says where it goes.
		line.WriteString(" → " + ShortHref(n.URL, f.URL))
	}
	if n.Value != "" && name != n.Value {
		line.WriteString(" = " + quote(collapse(n.Value)))
	}
	for _, p := range n.Props {
		line.WriteString(" " + propText(p))
	}
	if isIframe {
		if child := f.Children[n.Key]; child != nil && child.URL != "" {
			line.WriteString(" (" + child.URL + ")")
		}
	}
	o.line = line.String()
	if leaves[role] {
		return []*out{o}
	}
	if r.opts.Interactive && !isIframe {
		// Flat: the element, then whatever interactive elements it holds —
		// except a drop-down's options: 'select' picks them by text, and a
		// country list would otherwise swamp the page. The full snapshot
		// still lists them, with refs.
		inner := kids(parentText{name: name})
		if role == "combobox" {
			options := 0
			kept := inner[:0]
			for _, k := range inner {
				if k.role == "option" {
					options++
				} else {
					kept = append(kept, k)
				}
			}
			if options > 0 {
				o.line += fmt.Sprintf(" (%d options)", options)
			}
			inner = kept
		}
		return append([]*out{o}, inner...)
	}
	o.children = kids(parentText{name, strings.TrimSpace(collapse(n.Value))})
	return []*out{o}
}

// foldRepeats drops, from a flat -i list, links that repeat an earlier
// link's name and target (a docs page links "IOBase" thirty times): one ref
// goes where all of them go. The first line counts the ones it stands for.
// Each iframe's list is folded on its own; script links never fold.
func foldRepeats(list []*out) []*out {
	type link struct{ name, target string }
	first := map[link]*out{}
	count := map[*out]int{}
	kept := list[:0]
	for _, o := range list {
		if len(o.children) > 0 {
			o.children = foldRepeats(o.children)
		}
		if o.role != "link" || o.name == "" || o.target == "" || strings.HasPrefix(o.target, "javascript:") {
			kept = append(kept, o)
			continue
		}
		k := link{o.name, o.target}
		if f := first[k]; f != nil {
			count[f]++
			continue
		}
		first[k] = o
		kept = append(kept, o)
	}
	for o, n := range count {
		o.line += fmt.Sprintf(" (+%d identical links)", n)
	}
	return kept
}

// dropEchoes removes text lines that only repeat a sibling element's name,
// as a label's text does beside the field it names.
func dropEchoes(list []*out) []*out {
	names := map[string]bool{}
	for _, o := range list {
		if !o.text && o.name != "" {
			names[o.name] = true
		}
	}
	if len(names) == 0 {
		return list
	}
	kept := list[:0]
	for _, o := range list {
		if !(o.text && names[o.name]) {
			kept = append(kept, o)
		}
	}
	return kept
}

func (r *renderer) write(b *strings.Builder, list []*out, depth int) {
	if r.opts.MaxDepth > 0 && depth >= r.opts.MaxDepth {
		return
	}
	for _, o := range list {
		if !o.keep && len(o.children) == 0 {
			continue
		}
		if o.away && !r.reachesArea(o, depth) {
			r.away += r.lines([]*out{o}, depth)
			continue
		}
		// Under -i only iframe lines have children, so only frame contents
		// are indented and the list otherwise stays flat.
		b.WriteString(strings.Repeat("  ", depth))
		if o.ref != nil {
			// Ids are given only to lines that are printed.
			o.ref.ID = r.ids.id(o.ref.FrameID, o.ref.World, o.ref.Key)
			r.refs = append(r.refs, *o.ref)
			b.WriteString("@" + o.ref.ID + " ")
		}
		b.WriteString(o.line)
		b.WriteByte('\n')
		r.write(b, o.children, depth+1)
	}
}

// reachesArea reports whether o, or something printed under it, lies in
// Options.Area: an element outside it still heads the ones inside.
func (r *renderer) reachesArea(o *out, depth int) bool {
	if o.reach != 0 {
		return o.reach > 0
	}
	yes := !o.away && (o.keep || len(o.children) > 0)
	if !yes && (r.opts.MaxDepth == 0 || depth+1 < r.opts.MaxDepth) {
		for _, c := range o.children {
			if r.reachesArea(c, depth+1) {
				yes = true
				break
			}
		}
	}
	o.reach = -1
	if yes {
		o.reach = 1
	}
	return yes
}

// lines counts the lines write would print for list at depth.
func (r *renderer) lines(list []*out, depth int) int {
	if r.opts.MaxDepth > 0 && depth >= r.opts.MaxDepth {
		return 0
	}
	n := 0
	for _, o := range list {
		if o.keep || len(o.children) > 0 {
			n += 1 + r.lines(o.children, depth+1)
		}
	}
	return n
}

// displayRole maps Chromium's internal role names to ARIA ones.
func displayRole(role string) string {
	switch role {
	case "Iframe":
		return "iframe"
	case "MenuListOption":
		return "option"
	case "textField":
		return "textbox"
	case "LabelText":
		return "label"
	case "Date":
		return "date"
	case "DateTime":
		return "datetime"
	case "InputTime":
		return "time"
	case "ColorWell":
		return "color"
	}
	return role
}

func propText(p Prop) string {
	switch p.Value {
	case "true", "":
		return "[" + p.Name + "]"
	}
	return "[" + p.Name + "=" + p.Value + "]"
}

// StateProps picks, from a node's properties, the ones worth showing, in a
// stable order. values maps property name → its JSON-decoded string value.
func StateProps(values map[string]string) []Prop {
	var props []Prop
	if v := values["level"]; v != "" {
		props = append(props, Prop{"level", v})
	}
	for _, name := range []string{"checked", "pressed", "selected", "expanded", "disabled", "required", "readonly", "invalid", "focused"} {
		v, ok := values[name]
		if !ok || v == "false" || v == "" {
			continue
		}
		props = append(props, Prop{name, v})
	}
	return props
}

func collapse(s string) string {
	if !strings.ContainsAny(s, "\n\t\r  ") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// quote renders a name in double quotes, shortened past 100 characters.
func quote(s string) string {
	if r := []rune(s); len(r) > 100 {
		s = string(r[:97]) + "…"
	}
	return strconv.Quote(s)
}
