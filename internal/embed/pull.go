package embed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/lore-dev/lore/internal/errs"
)

// DefaultHFEndpoint is where Pull downloads models from unless the
// environment variable LORE_HF_ENDPOINT (or HF_ENDPOINT) names another.
const DefaultHFEndpoint = "https://huggingface.co"

// pullHeaderTimeout bounds the wait for each download to start; the body
// itself may take as long as it needs (the caller's ctx still applies).
const pullHeaderTimeout = 60 * time.Second

// pullFile is one file of a model repository.
type pullFile struct {
	name     string
	optional bool // a 404 is not an error
}

var pullFiles = []pullFile{
	{name: modelWeightsFile},
	{name: modelTokenizerFile},
	{name: modelConfigFile, optional: true},
}

var repoIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$`)

// ModelDir returns the folder Pull installs repoID into.
func ModelDir(cacheDir, repoID string) string {
	return filepath.Join(cacheDir, "models", strings.ReplaceAll(repoID, "/", "__"))
}

// Pull downloads the model2vec model repoID (e.g. "minishlab/potion-base-8M")
// from Hugging Face into ModelDir(cacheDir, repoID) and returns that folder,
// ready for "model2vec:<dir>". The files go to a temporary folder first and
// replace any previous copy only once all of them arrived and the model
// loads, so an interrupted pull never leaves a broken model behind.
//
// progress, if not nil, is called as bytes arrive with the bytes received so
// far and the total (-1 when the server does not announce sizes). A token in
// HF_TOKEN is sent for private or gated repositories.
func Pull(ctx context.Context, repoID, cacheDir string, progress func(done, total int64)) (string, error) {
	if !repoIDPattern.MatchString(repoID) || strings.Contains(repoID, "..") {
		return "", errs.New(errs.Invalid, CodeInvalidEmbedder,
			"model repository %q is not a Hugging Face repo id like \"owner/name\"", repoID)
	}
	endpoint := strings.TrimRight(firstEnv("LORE_HF_ENDPOINT", "HF_ENDPOINT"), "/")
	if endpoint == "" {
		endpoint = DefaultHFEndpoint
	}
	modelsDir := filepath.Join(cacheDir, "models")
	if err := os.MkdirAll(modelsDir, 0o755); err != nil {
		return "", fmt.Errorf("creating model cache %s: %w", modelsDir, err)
	}
	tmp, err := os.MkdirTemp(modelsDir, ".pull-*")
	if err != nil {
		return "", fmt.Errorf("creating a download folder in %s: %w", modelsDir, err)
	}
	defer os.RemoveAll(tmp) // a no-op once tmp has been renamed into place

	d := downloader{
		client:   &http.Client{Transport: pullTransport()},
		endpoint: endpoint,
		repoID:   repoID,
		token:    os.Getenv("HF_TOKEN"),
	}
	responses, err := d.open(ctx)
	if err != nil {
		return "", err
	}
	defer func() {
		for _, r := range responses {
			r.body.Close()
		}
	}()

	total := int64(0)
	for _, r := range responses {
		if r.size < 0 {
			total = -1
			break
		}
		total += r.size
	}
	var done int64
	report := func(n int64) {
		done += n
		if progress != nil {
			progress(done, total)
		}
	}
	for _, r := range responses {
		if err := d.save(ctx, r, filepath.Join(tmp, r.name), report); err != nil {
			return "", err
		}
	}

	if _, err := LoadModel2Vec(tmp); err != nil {
		return "", errs.New(errs.Invalid, CodeModelInvalid,
			"downloaded %s from %s, but it is not a usable model2vec model: %v", repoID, endpoint, err).Wrap(err)
	}
	dest := ModelDir(cacheDir, repoID)
	if err := replaceDir(tmp, dest); err != nil {
		return "", fmt.Errorf("installing model %s into %s: %w", repoID, dest, err)
	}
	return dest, nil
}

func pullTransport() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = pullHeaderTimeout
	return t
}

type downloader struct {
	client   *http.Client
	endpoint string
	repoID   string
	token    string
}

type download struct {
	name string
	url  string
	size int64 // -1 when unknown
	body io.ReadCloser
}

// open starts every download, so the total size is known before the first
// byte is saved.
func (d downloader) open(ctx context.Context) ([]download, error) {
	var opened []download
	fail := func(err error) ([]download, error) {
		for _, o := range opened {
			o.body.Close()
		}
		return nil, err
	}
	for _, f := range pullFiles {
		url := fmt.Sprintf("%s/%s/resolve/main/%s", d.endpoint, d.repoID, f.name)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return fail(errs.New(errs.Invalid, CodeModelDownload, "bad download URL %s: %v", url, err).Wrap(err))
		}
		req.Header.Set("User-Agent", "lore")
		if d.token != "" {
			req.Header.Set("Authorization", "Bearer "+d.token)
		}
		resp, err := d.client.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return fail(fmt.Errorf("downloading %s: %w", url, ctx.Err()))
			}
			return fail(errs.New(errs.Internal, CodeModelDownload,
				"cannot reach %s to download %s: %v (check the network connection, or set LORE_HF_ENDPOINT to a reachable mirror)",
				d.endpoint, d.repoID, err).Wrap(err))
		}
		if resp.StatusCode == http.StatusNotFound && f.optional {
			resp.Body.Close()
			continue
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			return fail(d.statusError(url, f.name, resp.StatusCode))
		}
		opened = append(opened, download{name: f.name, url: url, size: resp.ContentLength, body: resp.Body})
	}
	return opened, nil
}

func (d downloader) statusError(url, file string, status int) error {
	switch status {
	case http.StatusNotFound:
		return errs.New(errs.NotFound, CodeModelNotFound,
			"%s has no %s for model %s (HTTP 404 from %s): check the repository name", d.endpoint, file, d.repoID, url)
	case http.StatusUnauthorized, http.StatusForbidden:
		return errs.New(errs.Invalid, CodeModelDownload,
			"%s refused access to model %s (HTTP %d): the repository may be private or gated; set HF_TOKEN", d.endpoint, d.repoID, status)
	default:
		return errs.New(errs.Internal, CodeModelDownload, "downloading %s: HTTP %d", url, status)
	}
}

// save writes one download to path, checking that the announced size
// arrived, and syncs it to disk.
func (d downloader) save(ctx context.Context, r download, path string, report func(int64)) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("creating %s: %w", path, err)
	}
	n, copyErr := io.Copy(f, progressReader{r: r.body, report: report})
	syncErr := f.Sync()
	closeErr := f.Close()
	switch {
	case copyErr != nil && ctx.Err() != nil:
		return fmt.Errorf("downloading %s: %w", r.url, ctx.Err())
	case copyErr != nil:
		return errs.New(errs.Internal, CodeModelDownload, "downloading %s: connection lost after %d bytes: %v", r.url, n, copyErr).Wrap(copyErr)
	case r.size >= 0 && n != r.size:
		return errs.New(errs.Internal, CodeModelDownload, "downloading %s: got %d bytes, expected %d", r.url, n, r.size)
	case syncErr != nil:
		return fmt.Errorf("writing %s: %w", path, syncErr)
	case closeErr != nil:
		return fmt.Errorf("writing %s: %w", path, closeErr)
	}
	return nil
}

type progressReader struct {
	r      io.Reader
	report func(int64)
}

func (p progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 {
		p.report(int64(n))
	}
	return n, err
}

// replaceDir moves src to dest, replacing whatever dest held. The old copy
// is moved aside first and restored if the move fails.
func replaceDir(src, dest string) error {
	old := src + ".old"
	hadOld := true
	if err := os.Rename(dest, old); errors.Is(err, os.ErrNotExist) {
		hadOld = false
	} else if err != nil {
		return err
	}
	if err := os.Rename(src, dest); err != nil {
		if hadOld {
			_ = os.Rename(old, dest)
		}
		return err
	}
	if hadOld {
		return os.RemoveAll(old)
	}
	return nil
}

func firstEnv(names ...string) string {
	for _, n := range names {
		if v := strings.TrimSpace(os.Getenv(n)); v != "" {
			return v
		}
	}
	return ""
}
