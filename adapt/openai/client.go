package openai

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
)

// defaultBaseURL is OpenAI's API root, used when Config.BaseURL is empty
// and an API key is given.
const defaultBaseURL = "https://api.openai.com/v1"

// Config configures a Client. Only Model is required, plus BaseURL or
// APIKey; every other zero field means the default it documents.
type Config struct {
	// BaseURL is the API root, such as "https://api.openai.com/v1" or
	// "http://localhost:8000/v1" (vLLM); requests go to BaseURL +
	// "/chat/completions". "" means defaultBaseURL, but only when APIKey is
	// set: with neither, New fails rather than guess.
	BaseURL string
	// APIKey is sent as a bearer token. "" sends none, as local servers
	// expect. It never appears in errors, logs or the Client's String.
	APIKey string
	// Model is the model name the server knows, such as "gpt-4o" or
	// "Qwen/Qwen2.5-Coder-7B-Instruct". Required.
	Model string
	// Name is what Name returns, and so what reports call the model. ""
	// means Model.
	Name string
	// Header holds extra headers for every request, such as
	// OpenAI-Organization.
	Header http.Header
	// MaxCompletionTokens sends Sampling.MaxTokens as
	// max_completion_tokens, which OpenAI's reasoning models require,
	// instead of max_tokens.
	MaxCompletionTokens bool

	// Timeout bounds each HTTP attempt, from sending the request to reading
	// the whole response. 0 means 10 minutes.
	Timeout time.Duration
	// MaxRetries is how many times a request is sent again after a 408,
	// 409, 429 or 5xx response, a transport error or a timeout. 0 means 5;
	// a negative value means none.
	MaxRetries int
	// Backoff is the wait before the first retry; it doubles for each
	// retry after, with jitter (a wait is drawn from [b/2, b]). 0 means 1s.
	Backoff time.Duration
	// MaxBackoff caps the wait between attempts. A server that asks, by
	// Retry-After, for a longer wait than this is not retried: the request
	// fails with its error. 0 means 2 minutes.
	MaxBackoff time.Duration

	// RequestsPerMinute limits the HTTP requests sent, retries included. 0
	// means no limit.
	RequestsPerMinute int
	// TokensPerMinute limits the tokens sent and received, estimated
	// before each request (a quarter of the prompt's bytes plus n times
	// MaxTokens) and corrected by the usage the server reports. 0 means no
	// limit.
	TokensPerMinute int

	// Cache, if set, keeps every completion on disk and answers identical
	// requests from there. nil means no cache.
	Cache *Cache
	// Prices are USD per million tokens, by model name. When Model has an
	// entry, Cost prices usage; nil means no prices.
	Prices map[string]Price
	// HTTPClient sends the requests. nil means a client of its own with
	// http.DefaultTransport's settings. Its Timeout, if any, applies on
	// top of Timeout.
	HTTPClient *http.Client
	// Logger, if set, is told about retries, the n fallback and cache write
	// failures. nil means no logging.
	Logger *slog.Logger
}

// Price is what a model's tokens cost, in USD per million tokens.
type Price struct {
	Input  float64 `json:"input"`
	Output float64 `json:"output"`
}

// EnvConfig returns a Config from the environment: BaseURL from
// OPENAI_BASE_URL, APIKey from OPENAI_API_KEY and Model from model, or
// OPENAI_MODEL when model is "". Fields can be set on the result before it
// is passed to New.
func EnvConfig(model string) Config {
	if model == "" {
		model = os.Getenv("OPENAI_MODEL")
	}
	return Config{
		BaseURL: strings.TrimSpace(os.Getenv("OPENAI_BASE_URL")),
		APIKey:  strings.TrimSpace(os.Getenv("OPENAI_API_KEY")),
		Model:   model,
	}
}

// Client is an adapt.Model that asks an OpenAI-compatible chat-completions
// endpoint. It is safe for concurrent use.
//
// It speaks the wire format with net/http and encoding/json, not an SDK.
// The subset it needs is one POST and a few JSON fields, while the parts
// that matter for an evaluation harness are exactly the ones SDKs decide
// for you: which failures are retried and how long to wait, the fallback
// when a server ignores or rejects n, fields outside OpenAI's schema
// (reasoning_content), usage bookkeeping and caching. go-openai would add a
// dependency and a second request type to translate into while leaving all
// of that to write; openai-go is heavier still to build.
type Client struct {
	cfg      Config // resolved, a private copy
	url      string // the endpoint
	shownURL string // the endpoint without user info, for messages
	http     *http.Client
	cache    *diskCache
	rpm, tpm *bucket
	log      *slog.Logger

	// nOne is set once the server has shown it does not honour n.
	nOne atomic.Bool

	requests, retries, hits, prompt, completion atomic.Int64

	// now and sleep are the clock; tests replace them.
	now   func() time.Time
	sleep func(context.Context, time.Duration) error
}

// New returns a Client for cfg, after checking it. cfg is not retained.
func New(cfg *Config) (*Client, error) {
	if cfg == nil {
		cfg = new(Config)
	}
	c := &Client{cfg: *cfg, now: time.Now, sleep: sleepCtx}
	r := &c.cfg
	r.Header = r.Header.Clone()
	r.Prices = maps.Clone(r.Prices)
	if r.Model == "" {
		return nil, errors.New("openai: no model named: set Config.Model (or OPENAI_MODEL)")
	}
	if r.BaseURL == "" {
		if r.APIKey == "" {
			return nil, errors.New("openai: no endpoint named: set Config.BaseURL (OPENAI_BASE_URL) to an OpenAI-compatible server, or Config.APIKey (OPENAI_API_KEY) to use " + defaultBaseURL)
		}
		r.BaseURL = defaultBaseURL
	}
	u, err := url.Parse(r.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		shown := "the base URL"
		if err == nil {
			shown = fmt.Sprintf("%q", u.Redacted())
		}
		return nil, fmt.Errorf("openai: %s is not an http or https URL (want one such as %s or http://localhost:8000/v1)", shown, defaultBaseURL)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("openai: base URL %q has a query or fragment", u.Redacted())
	}
	c.url = strings.TrimRight(r.BaseURL, "/")
	if !strings.HasSuffix(c.url, "/chat/completions") {
		c.url += "/chat/completions"
	}
	pu, _ := url.Parse(c.url)
	c.shownURL = pu.Redacted()
	switch {
	case r.Timeout < 0, r.Backoff < 0, r.MaxBackoff < 0:
		return nil, errors.New("openai: Timeout, Backoff and MaxBackoff must not be negative")
	case r.RequestsPerMinute < 0, r.TokensPerMinute < 0:
		return nil, errors.New("openai: RequestsPerMinute and TokensPerMinute must not be negative")
	}
	for m, p := range r.Prices {
		if !(p.Input >= 0 && p.Output >= 0) {
			return nil, fmt.Errorf("openai: price of %q must not be negative", m)
		}
	}
	if r.Timeout == 0 {
		r.Timeout = 10 * time.Minute
	}
	switch {
	case r.MaxRetries == 0:
		r.MaxRetries = 5
	case r.MaxRetries < 0:
		r.MaxRetries = 0
	}
	if r.Backoff == 0 {
		r.Backoff = time.Second
	}
	if r.MaxBackoff == 0 {
		r.MaxBackoff = 2 * time.Minute
	}
	r.MaxBackoff = max(r.MaxBackoff, r.Backoff)
	if r.Name == "" {
		r.Name = r.Model
	}
	c.http = r.HTTPClient
	if c.http == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 64
		c.http = &http.Client{Transport: t}
	}
	c.log = r.Logger
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if r.Cache != nil {
		if c.cache, err = newDiskCache(r.Cache); err != nil {
			return nil, err
		}
	}
	c.rpm = newBucket(r.RequestsPerMinute, c.now())
	c.tpm = newBucket(r.TokensPerMinute, c.now())
	return c, nil
}

// Name returns Config.Name, or the model name.
func (c *Client) Name() string { return c.cfg.Name }

// Identity implements adapt.Identifier: the endpoint (without user
// info) and the model the client asks, so that a journal is not resumed
// with another model under the same Config.Name.
func (c *Client) Identity() string {
	return fmt.Sprintf("openai %s model %q", c.shownURL, c.cfg.Model)
}

// Preflight implements adapt.Preflighter: one request for one token that
// finds a dead endpoint, a rejected key or an unknown model before a run
// starts. It goes through the client's retries, rate limits and
// Retry-After as any request does (a 429, a 5xx or a timeout may pass:
// a batch of shards starting together against a rate-limited endpoint
// must not all die), but fails at once on what no retry mends: a refused
// connection, no such host, a 401, 403 or 404 (errors that match
// adapt.ErrModelUnavailable). Its tokens are counted in Usage. A
// client with a Cache sends none: its run may be answered from the cache
// alone, with the server away.
func (c *Client) Preflight(ctx context.Context) error {
	if c.cache != nil {
		return nil
	}
	one := 1
	body := chatRequest{Model: c.cfg.Model, Messages: []adapt.Message{{Role: "user", Content: "Reply with OK."}}}
	if c.cfg.MaxCompletionTokens {
		body.MaxCompletionTokens = one
	} else {
		body.MaxTokens = one
	}
	b, err := json.Marshal(body)
	if err != nil {
		return fmt.Errorf("openai: %w", err)
	}
	est := 3.0 + 1 + 4 + float64(len(body.Messages[0].Content))/4
	resp, err := c.send(ctx, b, est, true)
	if err != nil {
		return err
	}
	if u := resp.Usage; u != nil {
		c.prompt.Add(int64(u.PromptTokens))
		c.completion.Add(int64(u.CompletionTokens))
		c.tpm.adjust(float64(u.PromptTokens+u.CompletionTokens)-est, c.now())
	}
	return nil
}

// String describes the client without its API key.
func (c *Client) String() string {
	return fmt.Sprintf("openai.Client(%s at %s)", c.cfg.Model, c.shownURL)
}

// GoString is String, so that %#v does not print the API key either.
func (c *Client) GoString() string { return c.String() }

// Cost prices u with the model's entry in Config.Prices; it reports false
// when there is none. It makes Client an adapt.Pricer.
func (c *Client) Cost(u report.Usage) (float64, bool) {
	p, ok := c.cfg.Prices[c.cfg.Model]
	if !ok {
		return 0, false
	}
	return (float64(u.PromptTokens)*p.Input + float64(u.CompletionTokens)*p.Output) / 1e6, true
}

// Stats counts what a Client has done.
type Stats struct {
	// Requests is the HTTP requests sent, retries included.
	Requests int64
	// Retries is the requests sent again after a failure.
	Retries int64
	// CacheHits is the completions answered from the cache.
	CacheHits int64
	// Usage is the tokens the server reported for the requests this client
	// made: what was paid for, unlike the usage of cached completions.
	Usage report.Usage
}

// Stats returns the counts so far.
func (c *Client) Stats() Stats {
	return Stats{
		Requests:  c.requests.Load(),
		Retries:   c.retries.Load(),
		CacheHits: c.hits.Load(),
		Usage:     report.Usage{PromptTokens: int(c.prompt.Load()), CompletionTokens: int(c.completion.Load())},
	}
}

// Complete asks for max(req.Sampling.N, 1) completions of req.Messages. It
// sends one request with n set when the server honours n, else one request
// per sample (see the package doc), and answers from the cache what it
// can. A sample whose request fails, after the retries, has Err set; Complete
// returns an error when no sample succeeded, when req is inconsistent, or
// when ctx ends, which stops any retry and request in flight. adapt.Evaluate
// records such an error against every sample of the request without
// stopping the evaluation.
func (c *Client) Complete(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
	n := max(req.Sampling.N, 1)
	samples := req.Samples
	if samples == nil {
		samples = make([]int, n)
		for i := range samples {
			samples[i] = i
		}
	} else if len(samples) != n {
		return nil, fmt.Errorf("openai: request has %d sample indices for %d samples", len(samples), n)
	}
	out := make([]report.Completion, n)
	errs := make([]error, n)
	keys := c.cache.keys(c.cfg.Model, req, samples)
	var miss []int
	for i := range out {
		if keys != nil {
			if comp, ok := c.cache.load(keys[i]); ok {
				out[i] = comp
				c.hits.Add(1)
				continue
			}
		}
		miss = append(miss, i)
	}
	if len(miss) > 0 {
		c.fetch(ctx, req, samples, miss, out, errs)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("openai: %w", err)
	}
	var first error
	failed := 0
	for i := range out {
		if errs[i] != nil {
			errs[i] = redact(errs[i], c.cfg.APIKey)
			out[i] = report.Completion{Err: errs[i].Error()}
			failed++
			first = cmp.Or(first, errs[i])
			continue
		}
		if keys != nil && slices.Contains(miss, i) {
			if err := c.cache.store(keys[i], out[i]); err != nil {
				c.log.Warn("openai: cache write failed", "model", c.cfg.Model, "err", err)
			}
		}
	}
	if failed == n {
		return nil, first
	}
	return out, nil
}

// fetch asks the server for the completions at positions miss of out,
// setting out[i] or errs[i] for each.
//
// It asks for them all in one request with n set. Not every server honours
// n: some return fewer choices, some answer 400. Either way the missing
// samples are asked for one request each, and the client remembers (nOne)
// for the rest of its life to send one request per sample. A 400 is taken
// to be about n only if the same request for one sample then succeeds;
// otherwise it is the error of every pending sample.
func (c *Client) fetch(ctx context.Context, req adapt.Request, samples, miss []int, out []report.Completion, errs []error) {
	one := func(i int) {
		comps, err := c.call(ctx, req, 1, seedFor(req.Sampling.Seed, samples[i]))
		if err == nil && len(comps) == 0 {
			err = fmt.Errorf("openai: POST %s: the server returned no choices", c.shownURL)
		}
		if err != nil {
			errs[i] = err
			return
		}
		out[i] = comps[0]
	}
	pending := miss
	for len(pending) > 0 && ctx.Err() == nil {
		if len(pending) == 1 || c.nOne.Load() {
			// One after another, so that the caller's bound on requests in
			// flight (adapt.Options.ModelConcurrency) still holds.
			for _, i := range pending {
				if ctx.Err() != nil {
					return
				}
				one(i)
			}
			return
		}
		comps, err := c.call(ctx, req, len(pending), req.Sampling.Seed)
		if err != nil {
			var ae *APIError
			if errors.As(err, &ae) && ae.StatusCode == http.StatusBadRequest {
				// Perhaps n is what the server refuses: if the first
				// sample alone succeeds, it was.
				i := pending[0]
				one(i)
				if errs[i] == nil {
					c.noN("rejects n > 1: " + ae.Message)
					pending = pending[1:]
					continue
				}
				errs[i] = nil
			}
			for _, i := range pending {
				errs[i] = err
			}
			return
		}
		for j, comp := range comps {
			out[pending[j]] = comp
		}
		if len(comps) == len(pending) {
			return
		}
		c.noN(fmt.Sprintf("returned %d choices for n = %d", len(comps), len(pending)))
		pending = pending[len(comps):]
	}
}

func (c *Client) noN(why string) {
	if !c.nOne.Swap(true) {
		c.log.Info("openai: the server "+why+"; asking for one sample per request from now on", "model", c.cfg.Model)
	}
}

// seedFor returns the seed of a request for sample i alone: the seed plus
// i, so that separate requests for different samples do not all return the
// same sample.
func seedFor(seed *int64, i int) *int64 {
	if seed == nil {
		return nil
	}
	s := *seed + int64(i)
	return &s
}

// call sends one request for n completions, retrying as configured.
func (c *Client) call(ctx context.Context, req adapt.Request, n int, seed *int64) ([]report.Completion, error) {
	s := req.Sampling
	body := chatRequest{
		Model:       c.cfg.Model,
		Messages:    req.Messages,
		Temperature: s.Temperature,
		TopP:        s.TopP,
		Seed:        seed,
		Stop:        s.Stop,
		Logprobs:    s.Logprobs,
	}
	if n > 1 {
		body.N = n
	}
	if c.cfg.MaxCompletionTokens {
		body.MaxCompletionTokens = s.MaxTokens
	} else {
		body.MaxTokens = s.MaxTokens
	}
	if body.Messages == nil {
		body.Messages = []adapt.Message{}
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("openai: %w", err)
	}
	// The token estimate the rate limit charges up front: a quarter of the
	// prompt's bytes (plus a little per message) and n × max_tokens. The
	// usage the server reports corrects it below.
	est := 3.0 + float64(n*max(s.MaxTokens, 0))
	for _, m := range req.Messages {
		est += 4 + float64(len(m.Content))/4
	}
	resp, err := c.send(ctx, b, est, false)
	if err != nil {
		return nil, err
	}
	if u := resp.Usage; u != nil {
		c.prompt.Add(int64(u.PromptTokens))
		c.completion.Add(int64(u.CompletionTokens))
		c.tpm.adjust(float64(u.PromptTokens+u.CompletionTokens)-est, c.now())
	}
	if len(resp.Choices) > n {
		// Which n of them were asked for is anyone's guess.
		return nil, fmt.Errorf("openai: POST %s: %w: the server returned %d choices for n = %d", c.shownURL, ErrMalformedResponse, len(resp.Choices), n)
	}
	return completions(resp), nil
}

// send posts body, retrying with backoff as configured; fast stops the
// retries at an error no retry mends (adapt.ErrModelUnavailable: a
// refused connection, no such host, a 401, 403 or 404).
func (c *Client) send(ctx context.Context, body []byte, est float64, fast bool) (*chatResponse, error) {
	for attempt := 0; ; attempt++ {
		if err := c.rpm.take(ctx, 1, c.now, c.sleep); err != nil {
			return nil, fmt.Errorf("openai: waiting for the rate limit: %w", err)
		}
		if err := c.tpm.take(ctx, est, c.now, c.sleep); err != nil {
			return nil, fmt.Errorf("openai: waiting for the token rate limit: %w", err)
		}
		resp, retry, err := c.attempt(ctx, body)
		if err == nil {
			return resp, nil
		}
		if !retry || ctx.Err() != nil || fast && errors.Is(err, adapt.ErrModelUnavailable) {
			return nil, err
		}
		if attempt >= c.cfg.MaxRetries {
			return nil, fmt.Errorf("%w (gave up after %d attempts)", err, attempt+1)
		}
		wait := c.backoff(attempt)
		var ae *APIError
		if errors.As(err, &ae) && ae.RetryAfter > 0 {
			if ae.RetryAfter > c.cfg.MaxBackoff {
				return nil, fmt.Errorf("%w (the server asks to retry after %v, longer than MaxBackoff %v)", err, ae.RetryAfter, c.cfg.MaxBackoff)
			}
			wait = ae.RetryAfter
		}
		c.retries.Add(1)
		c.log.Warn("openai: retrying", "model", c.cfg.Model, "attempt", attempt+1, "wait", wait, "err", redact(err, c.cfg.APIKey).Error())
		if serr := c.sleep(ctx, wait); serr != nil {
			return nil, fmt.Errorf("openai: %w while waiting to retry after: %w", serr, err)
		}
	}
}

// backoff returns the wait before retry number attempt+1: Backoff doubled
// attempt times, capped at MaxBackoff, drawn from [d/2, d].
func (c *Client) backoff(attempt int) time.Duration {
	d := c.cfg.Backoff
	for range attempt {
		if d >= c.cfg.MaxBackoff/2 {
			d = c.cfg.MaxBackoff
			break
		}
		d *= 2
	}
	d = min(d, c.cfg.MaxBackoff)
	return d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
}

// maxBody bounds the response body read.
const maxBody = 64 << 20

// attempt sends one HTTP request. retry reports whether a failure may go
// away if the request is sent again.
func (c *Client) attempt(ctx context.Context, body []byte) (resp *chatResponse, retry bool, err error) {
	actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	hreq, err := http.NewRequestWithContext(actx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, false, fmt.Errorf("openai: %w", err)
	}
	for k, v := range c.cfg.Header {
		hreq.Header[k] = v
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json")
	if c.cfg.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	c.requests.Add(1)
	// failed describes a transport failure.
	failed := func(err error) (*chatResponse, bool, error) {
		switch {
		case ctx.Err() != nil:
			return nil, false, fmt.Errorf("openai: POST %s: %w", c.shownURL, ctx.Err())
		case actx.Err() != nil:
			return nil, true, fmt.Errorf("openai: POST %s: no response within %v (Config.Timeout): %w", c.shownURL, c.cfg.Timeout, context.DeadlineExceeded)
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		var dns *net.DNSError
		if errors.Is(err, syscall.ECONNREFUSED) || errors.As(err, &dns) && dns.IsNotFound {
			// Retried as configured (a server may be starting), but
			// Evaluate asks no more once the client gives up.
			return nil, true, redact(fmt.Errorf("openai: POST %s: %w (is the server up, and is Config.BaseURL right?): %w", c.shownURL, err, adapt.ErrModelUnavailable), c.cfg.APIKey)
		}
		return nil, true, redact(fmt.Errorf("openai: POST %s: %w", c.shownURL, err), c.cfg.APIKey)
	}
	res, err := c.http.Do(hreq)
	if err != nil {
		return failed(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, maxBody+1))
	if err != nil {
		return failed(err)
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		ae := &APIError{
			StatusCode: res.StatusCode,
			Message:    scrub(errorMessage(data), c.cfg.APIKey),
			RetryAfter: retryAfter(res.Header, c.now()),
			URL:        c.shownURL,
		}
		return nil, ae.retryable(), ae
	}
	if len(data) > maxBody {
		return nil, false, fmt.Errorf("openai: POST %s: %w: the body is larger than %d MiB", c.shownURL, ErrMalformedResponse, maxBody>>20)
	}
	resp, err = parseResponse(data)
	if err != nil {
		return nil, false, redact(fmt.Errorf("openai: POST %s: %w", c.shownURL, err), c.cfg.APIKey)
	}
	return resp, false, nil
}

func scrub(s, secret string) string {
	if secret == "" {
		return s
	}
	return strings.ReplaceAll(s, secret, "[redacted]")
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
