package campaign

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeInnet writes an innet script into a temporary root that prints the arguments it was given.
func fakeInnet(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	script := "#!/bin/sh\necho \"$@\"\n"
	if err := os.WriteFile(filepath.Join(root, "innet"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestUpPassesTheCampaignShapeOnlyWhenAsked(t *testing.T) {
	root := fakeInnet(t)
	for _, shape := range []bool{false, true} {
		var out bytes.Buffer
		rack := InnetRack{Root: root, Name: "t", Out: &out}
		c := Config{Protocol: "visibility", Servers: 3, Clients: 2, Seed: 7, CampaignShape: shape}
		if err := rack.Up(c); err != nil {
			t.Fatalf("Up: %v", err)
		}
		args := strings.TrimSpace(out.String())
		if !strings.HasPrefix(args, "rack up --name t --protocol visibility --servers 3 --clients 2 --seed 7") {
			t.Fatalf("unexpected rack up arguments: %q", args)
		}
		if got := strings.Contains(args, "--campaign-shape"); got != shape {
			t.Errorf("CampaignShape=%v: rack up arguments %q", shape, args)
		}
	}
}
