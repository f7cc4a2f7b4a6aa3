package peer

import (
	"fmt"
	"net/http"
	"strings"
)

// The benches' synthetic pages. Both give click and fill a harmless target:
// the links page's "Sign in" button does not submit (a submit would navigate
// and stale every ref), and the big page has a text box (type=text, so every
// tool calls it a textbox; a search input would be a searchbox).

// LinksPage is a realistic page: a nav of 200 links, a form, some prose.
func LinksPage(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	b.WriteString("<!doctype html><title>Bench page</title><h1>Benchmark</h1><nav><ul>")
	for i := range 200 {
		fmt.Fprintf(&b, `<li><a href="/item/%d">Item number %d</a></li>`, i, i)
	}
	b.WriteString(`</ul></nav><form><label>Email <input name=email type=email></label>
<label>Password <input name=pw type=password></label><label><input type=checkbox name=remember> Remember me</label>
<select name=plan><option>Free</option><option>Pro</option></select><button type=button>Sign in</button></form>`)
	for i := range 20 {
		fmt.Fprintf(&b, "<p>Paragraph %d with some ordinary prose to read.</p>", i)
	}
	w.Write([]byte(b.String()))
}

// BigPage is 2,000 elements, a table of 400 rows × 5, under a search box.
func BigPage(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	b.WriteString("<!doctype html><title>Big</title><label>Search rows <input name=q></label><table>")
	for i := range 400 {
		fmt.Fprintf(&b, "<tr><td>Row %d</td><td>%d</td><td><a href='/r/%d'>open</a></td><td><button>Edit %d</button></td></tr>", i, i*7, i, i)
	}
	b.WriteString("</table>")
	w.Write([]byte(b.String()))
}
