package daemon

import (
	"net/http"

	"github.com/browsehq/browse/internal/commands"
)

func (d *Daemon) handleFile(w http.ResponseWriter, r *http.Request) {
	writeError(w, &commands.Error{Status: 501, Msg: "not built yet"})
}
