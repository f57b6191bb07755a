package nemesis

import (
	"fmt"
	"sort"
	"strings"
)

// unsupported lists, per protocol, the fault kinds its failure handling does not cover, with the reason
// (docs/jepsen.md, "Nemeses per protocol"). A protocol not listed supports every kind.
var unsupported = map[string]map[string]string{}

// ForProtocol checks the kinds a campaign asks for against what the protocol's failure handling covers.
// A list that names an unsupported kind is refused with the reason; "all" (combined) keeps the supported
// kinds and returns, one line each, the kinds it left out and why.
func ForProtocol(protocol string, kinds []string, combined bool) (kept []string, leftOut []string, err error) {
	reasons := unsupported[protocol]
	for _, k := range kinds {
		reason, no := reasons[k]
		switch {
		case !no:
			kept = append(kept, k)
		case combined:
			leftOut = append(leftOut, fmt.Sprintf("%s: %s", k, reason))
		default:
			return nil, nil, fmt.Errorf("nemesis %q is not supported for %s: %s (supported: %s)", k, protocol, reason,
				strings.Join(Supported(protocol), ", "))
		}
	}
	if len(kinds) > 0 && len(kept) == 0 {
		return nil, nil, fmt.Errorf("no nemesis left for %s", protocol)
	}
	return kept, leftOut, nil
}

// Supported lists the kinds the protocol's failure handling covers, in Kinds order.
func Supported(protocol string) []string {
	var out []string
	for _, k := range Kinds {
		if _, no := unsupported[protocol][k]; !no {
			out = append(out, k)
		}
	}
	return out
}

// Unsupported lists the kinds the protocol does not support, sorted, each with its reason.
func Unsupported(protocol string) []string {
	var out []string
	for k, reason := range unsupported[protocol] {
		out = append(out, k+": "+reason)
	}
	sort.Strings(out)
	return out
}
