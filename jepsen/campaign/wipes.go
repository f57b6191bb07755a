package campaign

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"

	"innet.dev/jepsen/history"
	"innet.dev/jepsen/nemesis"
)

// KeyOwners is a Rack that can say which server holds each workload key (InnetRack: ./innet rack
// owners). With it, a campaign can run kills of volatile servers (memcached) and check them.
type KeyOwners interface {
	// Owners maps each workload key (hex, as in the history) to its server's host number.
	Owners(c Config) (map[string]int, error)
}

// WipeClientBase numbers the synthetic clients of wipes: client WipeClientBase + 1000*wipe + key index.
const WipeClientBase = 900_000_000

var restartedServer = regexp.MustCompile(`\bserver-h(\d+)\b`)

// Wipes are the deletions a volatile server's restarts amount to: a killed memcached comes back
// empty, and the switch forgets what it cached from it before the restart (rack restart), so each key
// the server held is deleted at some instant between the kill and the end of the restart. Each is one
// acknowledged delete of that key whose interval is the event's: a kill (whose heal restarted the
// server) or a health check that restarted it. The history then states memcached's own promise, and
// porcupine and the lost-write check hold the rest of the system to it.
func Wipes(events []nemesis.Event, owners map[string]int) []history.Operation {
	keys := make([]string, 0, len(owners))
	for k := range owners {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var ops []history.Operation
	wipe := 0
	for _, ev := range events {
		if len(ev.Note) < len("restarted") || ev.Note[:len("restarted")] != "restarted" {
			continue
		}
		for _, m := range restartedServer.FindAllStringSubmatch(ev.Note, -1) {
			host, _ := strconv.Atoi(m[1])
			wipe++
			for i, k := range keys {
				if owners[k] != host {
					continue
				}
				ops = append(ops, history.Operation{Client: WipeClientBase + 1000*wipe + i, Kind: history.Delete, Key: k,
					Call: ev.StartMono, Return: ev.EndMono, HasReturn: true, Result: history.OK,
					ID: int64(WipeClientBase+1000*wipe+i) * 10, HasID: true})
			}
		}
	}
	return ops
}

// appendWipes writes the wipes into the history file as ordinary lines, so that ./innet lincheck on
// the kept history reaches the campaign's verdict.
func appendWipes(path string, wipes []history.Operation) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	for _, op := range wipes {
		line, err := json.Marshal(map[string]any{"client": op.Client, "op": "delete", "key": op.Key, "call": op.Call,
			"return": op.Return, "result": "ok", "id": op.ID})
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(f, "%s\n", line); err != nil {
			return err
		}
	}
	return nil
}
