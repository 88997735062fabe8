// Package openai is an [adapt.Model] that asks a server speaking the
// OpenAI chat-completions wire format: OpenAI itself, vendor APIs (DeepSeek,
// Moonshot, Together, OpenRouter, …) and local servers (vLLM, SGLang,
// Ollama, llama.cpp). It lives apart from adapt so that importing adapt
// pulls in no HTTP client; its only dependency is the standard library.
//
// # Configuration
//
// A [Config] names the endpoint, key and model; [New] checks it and returns
// a [Client]:
//
//	c, err := openai.New(&openai.Config{
//		BaseURL: "http://localhost:8000/v1", // vLLM
//		Model:   "Qwen/Qwen2.5-Coder-7B-Instruct",
//		Cache:   &openai.Cache{Dir: ".cache/openai"},
//	})
//	rep, err := adapt.Evaluate(ctx, tasks, c, &adapt.Options{Samples: 5})
//
// [EnvConfig] fills BaseURL, APIKey and Model from OPENAI_BASE_URL,
// OPENAI_API_KEY and OPENAI_MODEL. An empty BaseURL means OpenAI's own API
// when an API key is set; with neither, New fails saying what to set. The
// API key is sent as a bearer token and never appears in errors, logs or
// the Client's String.
//
// # Requests and answers
//
// [Client.Complete] sends POST {BaseURL}/chat/completions with the
// request's messages and sampling settings. Reasoning (reasoning_content,
// or a leading <think>…</think> block) goes to Completion.Reasoning, not
// Completion.Text; a refusal and the finish reason go to Completion.Refusal
// and Completion.FinishReason, which adapt counts in Report.Refusals.
// [Client.Identity] names the endpoint and the model, so that a journal is
// not resumed with another model under the same Config.Name.
//
// N samples are asked for in one request with n = N. A server that returns
// fewer choices, or answers 400 to n > 1, gets the missing samples one
// request each, and one request per sample from then on; each such request
// sends the seed plus the sample's index. More choices than n is
// [ErrMalformedResponse].
//
// # Faults and rate limits
//
// A request is sent again after a 408, 409, 429 or 5xx response, a
// transport error or a timeout, up to [Config].MaxRetries times, waiting
// what Retry-After says or else an exponential backoff with jitter (a
// server asking for more than [Config].MaxBackoff is not retried); other
// 4xx responses and malformed bodies fail at once. Errors from the server
// are [*APIError]s. Ending the context stops the request and any wait. A
// request that finally fails fails its samples only (Completion.Err);
// Complete returns an error itself only when no sample succeeded.
//
// [Config].RequestsPerMinute and [Config].TokensPerMinute limit what the
// client sends, spread evenly over the minute; tokens are estimated before
// a request and corrected by the usage the server reports.
//
// # Usage, cost and cache
//
// Each completion carries its share of the usage the server reported, so
// that the completions' usage sums to it. [Config].Prices makes
// [Client.Cost] price usage, and so puts the cost in adapt's report
// ([adapt.Pricer]); [Client.Stats] counts requests, retries, cache hits and
// the tokens actually paid for.
//
// With [Config].Cache set, every successful completion is stored on disk,
// keyed by model name, messages, sampling settings and sample index (not
// base URL or key), and a rerun or resumed evaluation sends no request for
// it. Only greedy requests (temperature 0) are cached unless [Cache].Sampled
// is set. A cached completion keeps its usage, so a rerun's report is the
// run's; Stats shows what was paid.
//
// # Stability
//
// The text of errors and log messages may change. The cache's file layout
// is versioned in its key: a change makes old entries misses, never wrong
// hits.
package openai
