package lincheck

import (
	"time"

	"github.com/anishathalye/porcupine"
)

// VisualizationResult says what the HTML file shows.
type VisualizationResult struct {
	// OmittedKeys are keys left out of the visualization because their check was unknown: their
	// search did not finish once, and repeating it for the picture would not finish either.
	OmittedKeys []string
	// Complete is false if the check repeated for the visualization ran out of time, in which case
	// the file may show partial linearizations only.
	Complete bool
}

// WriteHTML writes porcupine's visualization of the checked history to path. porcupine draws
// from the information a verbose check collects, and its partitioned check returns that for all
// keys at once, so the decided keys are checked once more, under the report's timeout; the search
// is deterministic, so this repeats the verdicts already reported.
func (r *Report) WriteHTML(path string) (VisualizationResult, error) {
	var result VisualizationResult
	var ops []porcupine.Operation
	for _, key := range r.Keys {
		if key.Verdict == Unknown {
			result.OmittedKeys = append(result.OmittedKeys, key.Key)
			continue
		}
		ops = append(ops, r.opsByKey[key.Key]...)
	}
	start := time.Now()
	outcome, info := porcupine.CheckOperationsVerbose(registerModel, ops, r.Timeout)
	// porcupine answers Illegal, not Unknown, when one partition failed before the timeout hit the
	// others, so running out of time is also judged by the clock.
	result.Complete = outcome != porcupine.Unknown && (r.Timeout == 0 || time.Since(start) < r.Timeout)
	return result, porcupine.VisualizePath(registerModel, info, path)
}
