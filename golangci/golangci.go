package golangci

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/authvet/authvet/analyzer"
	"github.com/authvet/authvet/internal/config"
)

func init() {
	register.Plugin("authvet", New)
}

// Settings are the plugin's settings in .golangci.yml.
type Settings struct {
	// Config is the path of authvet.yaml (relative paths from where
	// golangci-lint runs). Empty: the one at the module root, if any.
	Config string `json:"config"`
	// ConfigInline is the content of an authvet.yaml, for a
	// configuration kept in .golangci.yml itself.
	ConfigInline string `json:"config_inline"`
}

// New is the plugin's constructor.
func New(settings any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](settings)
	if err != nil {
		return nil, fmt.Errorf("authvet: %w", err)
	}
	if s.Config != "" && s.ConfigInline != "" {
		return nil, errors.New("authvet: settings: config and config_inline are exclusive")
	}
	path := s.Config
	if s.ConfigInline != "" {
		// Checked now, and kept in a file named by its content for the
		// analyzer, which reads its configuration from a path.
		sum := sha256.Sum256([]byte(s.ConfigInline))
		path = filepath.Join(os.TempDir(), "authvet-golangci-"+hex.EncodeToString(sum[:8])+".yaml")
		if _, err := config.Parse(".golangci.yml (authvet config_inline)", []byte(s.ConfigInline)); err != nil {
			return nil, fmt.Errorf("authvet: %w", err)
		}
		if err := os.WriteFile(path, []byte(s.ConfigInline), 0o644); err != nil {
			return nil, fmt.Errorf("authvet: %w", err)
		}
	} else if path != "" {
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, fmt.Errorf("authvet: %w", err)
		}
		if _, err := config.Load(abs); err != nil {
			return nil, fmt.Errorf("authvet: %w", err)
		}
		path = abs
	}
	return &plugin{config: path}, nil
}

type plugin struct{ config string }

func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	if p.config != "" {
		if err := analyzer.Analyzer.Flags.Set("config", p.config); err != nil {
			return nil, err
		}
	}
	return []*analysis.Analyzer{analyzer.Analyzer}, nil
}

func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
