// Package openai is an [adapt.Model] that asks a server speaking the
// OpenAI chat-completions wire format: OpenAI itself, vendor APIs (DeepSeek,
// Moonshot, Together, OpenRouter, …) and local servers (vLLM, SGLang,
// Ollama, llama.cpp). It lives apart from adapt so that importing adapt
// pulls in no HTTP client.
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
// OPENAI_API_KEY and OPENAI_MODEL; set any other field and pass it to New.
// An empty BaseURL means OpenAI's own API when an API key is set; with
// neither, New fails with an error saying what to set rather than send a
// request nowhere. The API key is sent as a bearer token and never appears
// in errors, logs or the Client's String.
//
// # Why net/http
//
// The client uses net/http and encoding/json, not an SDK. The wire subset
// it needs is one POST and a few JSON fields, while the parts that matter
// for an evaluation harness are exactly the ones SDKs decide for you:
// which failures are retried and how long to wait, the fallback when a
// server ignores or rejects n, fields outside OpenAI's schema
// (reasoning_content), usage bookkeeping and caching. go-openai would add a
// dependency and a second request type to translate into while leaving all
// of that to write; openai-go is heavier still to build. The package's only
// dependency is the standard library.
//
// # Requests
//
// Complete sends POST {BaseURL}/chat/completions with model, messages, n,
// temperature (always sent: 0 asks for greedy decoding), top_p,
// max_tokens (or max_completion_tokens, see [Config].MaxCompletionTokens),
// seed, stop and logprobs, the zero ones left out. Token log-probabilities
// are read from choices[i].logprobs.content when Sampling.Logprobs asks for
// them. Reasoning is kept apart from the answer: message.reasoning_content
// (or message.reasoning) goes to Completion.Reasoning, and so does a
// <think>…</think> block at the start of the content, which is cut from
// Completion.Text. An unclosed <think> makes the whole content reasoning; a
// closing </think> without an opening tag (some chat templates put the
// opening one in the prompt) ends the reasoning. A refusal
// (message.refusal) goes to Completion.Refusal, and the finish reason
// ("content_filter" for a filtered answer) to Completion.FinishReason:
// adapt counts both in Report.Refusals. [Client.Identity] names the
// endpoint and the model, so that a journal is not resumed with another
// model under the same Config.Name.
//
// # n and the fallback
//
// N samples are asked for in one request with n = N. Not every server
// honours n: some return fewer choices, some answer 400. (More choices
// than n is an error, ErrMalformedResponse: which n of them were asked for
// cannot be told.) Either way the
// client asks for the missing samples one request each, one after another
// (so that adapt.Options.ModelConcurrency still bounds the requests in
// flight), and remembers for the rest of its life to send one request per
// sample. A 400 is taken to be about n only if the same request for one
// sample then succeeds. A request for one sample i sends the seed plus i,
// so that separate requests with a seed do not all return the same sample.
//
// # Faults
//
// A request is sent again after a 408, 409, 429 or 5xx response, a
// transport error or a timeout ([Config].Timeout bounds each attempt), up to
// [Config].MaxRetries times. The wait is what Retry-After (seconds or an
// HTTP date) or retry-after-ms says, or else exponential backoff with
// jitter from [Config].Backoff, capped at [Config].MaxBackoff; a server that
// asks for a longer wait than the cap is not retried. Other 4xx responses
// and malformed bodies ([ErrMalformedResponse]) fail at once. Ending the
// context stops the request in flight and any wait. Errors from the server
// are [*APIError]s.
//
// A request that finally fails fails its samples only: Complete returns the
// others with the error in Completion.Err, and returns an error itself only
// when no sample succeeded, which adapt.Evaluate records against every
// sample of the request without stopping the evaluation.
//
// # Rate limits
//
// [Config].RequestsPerMinute and [Config].TokensPerMinute limit what the
// client sends, with token buckets spread over the minute (no more than a
// second's share at once). Tokens are estimated before a request (a
// quarter of the prompt's bytes plus n × max_tokens) and the estimate is
// corrected by the usage the server reports. The buckets are written here
// (forty lines) rather than taken from golang.org/x/time/rate, because that
// limiter refuses any single take larger than its burst (a long prompt, or
// a correction after the fact, would have to be cut up) and waits on the
// wall clock, which would make the tests of the limits slow.
//
// # Usage and cost
//
// The server reports usage per request. With several choices in one
// request, the prompt tokens (paid once) go to the first completion, and
// the completion tokens are split among the choices in proportion to the
// length of their text and reasoning, so that the completions' usage sums to
// what the server reported. [Config].Prices (USD per million input and
// output tokens, by model) makes [Client.Cost] price usage, and so puts the
// cost in adapt's report ([adapt.Pricer]). [Client.Stats] counts requests,
// retries, cache hits and the tokens actually paid for.
//
// # Cache
//
// With [Config].Cache set, every successful completion is stored in a
// directory, one JSON file per key, written to a temporary file and renamed
// into place so that a crash leaves no torn entry. The key is the model
// name, the messages, the sampling settings (all but N) and the sample's
// index (Request.Samples[i], or i when Samples is nil); not the base URL or
// key. A second identical evaluation, or a resumed one, sends no request
// for what is cached. Only greedy requests (temperature 0) are cached
// unless [Cache].Sampled asks for sampled ones too. A cached completion
// keeps the usage it had, so that the report of a rerun is the report of the
// run; Stats shows what was paid.
//
// # Stability
//
// The text of errors and log messages may change. The cache's file layout
// is versioned in its key: a change makes old entries misses, never wrong
// hits.
package openai
