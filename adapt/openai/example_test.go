package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/openai"
	"github.com/adaptbench/adaptbench/adapt/report"
)

// exampleServer stands in for vLLM or OpenAI: it answers every chat
// completion with a reasoning block and a fenced function, and counts the
// requests.
func exampleServer(requests *atomic.Int64) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		var req struct {
			Model string `json:"model"`
			N     int    `json:"n"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		var choices []map[string]any
		for i := range max(req.N, 1) {
			choices = append(choices, map[string]any{
				"index":         i,
				"message":       map[string]any{"role": "assistant", "content": "<think>Add one.</think>\n```python\ndef f(x):\n    return x + 1\n```"},
				"finish_reason": "stop",
			})
		}
		json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": req.Model,
			"choices": choices,
			"usage":   map[string]int{"prompt_tokens": 40, "completion_tokens": 30, "total_tokens": 70},
		})
	}))
}

func ExampleClient_Complete() {
	var requests atomic.Int64
	srv := exampleServer(&requests)
	defer srv.Close()

	c, err := openai.New(&openai.Config{BaseURL: srv.URL + "/v1", Model: "qwen2.5-coder"})
	if err != nil {
		log.Fatal(err)
	}
	comps, err := c.Complete(context.Background(), adapt.Request{
		Messages: []adapt.Message{{Role: "user", Content: "Write f(x) = x + 1."}},
		Sampling: report.Sampling{N: 2, Temperature: 0.2},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, comp := range comps {
		fmt.Printf("reasoning %q, usage %+v\n", comp.Reasoning, comp.Usage)
	}
	fmt.Print(comps[0].Text)
	fmt.Println()
	fmt.Println("requests:", requests.Load())
	// Output:
	// reasoning "Add one.", usage {PromptTokens:40 CompletionTokens:15}
	// reasoning "Add one.", usage {PromptTokens:0 CompletionTokens:15}
	// ```python
	// def f(x):
	//     return x + 1
	// ```
	// requests: 1
}

func ExampleCache() {
	var requests atomic.Int64
	srv := exampleServer(&requests)
	defer srv.Close()
	dir, err := os.MkdirTemp("", "openai-cache-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	req := adapt.Request{Messages: []adapt.Message{{Role: "user", Content: "Write f(x) = x + 1."}}}
	for run := 1; run <= 2; run++ {
		// A new client each time, as a rerun of the program would make.
		c, err := openai.New(&openai.Config{BaseURL: srv.URL + "/v1", Model: "qwen2.5-coder", Cache: &openai.Cache{Dir: dir}})
		if err != nil {
			log.Fatal(err)
		}
		if _, err := c.Complete(context.Background(), req); err != nil {
			log.Fatal(err)
		}
		st := c.Stats()
		fmt.Printf("run %d: %d request(s), %d cache hit(s), server saw %d\n", run, st.Requests, st.CacheHits, requests.Load())
	}
	// Output:
	// run 1: 1 request(s), 0 cache hit(s), server saw 1
	// run 2: 0 request(s), 1 cache hit(s), server saw 1
}

func ExampleClient_Cost() {
	c, err := openai.New(&openai.Config{
		APIKey: "sk-…",
		Model:  "gpt-4o",
		Prices: map[string]openai.Price{"gpt-4o": {Input: 2.50, Output: 10.00}},
	})
	if err != nil {
		log.Fatal(err)
	}
	cost, ok := c.Cost(report.Usage{PromptTokens: 1_200_000, CompletionTokens: 300_000})
	fmt.Printf("$%.2f %v\n", cost, ok)
	// Output:
	// $6.00 true
}

func ExampleEnvConfig() {
	var requests atomic.Int64
	srv := exampleServer(&requests)
	defer srv.Close()
	for k, v := range map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_API_KEY": "", "OPENAI_MODEL": "llama3.1"} {
		old, had := os.LookupEnv(k)
		os.Setenv(k, v)
		defer func() {
			if had {
				os.Setenv(k, old)
			} else {
				os.Unsetenv(k)
			}
		}()
	}

	cfg := openai.EnvConfig("") // the model from OPENAI_MODEL
	c, err := openai.New(&cfg)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.Name())

	os.Setenv("OPENAI_BASE_URL", "")
	cfg = openai.EnvConfig("")
	_, err = openai.New(&cfg)
	fmt.Println(err)
	// Output:
	// llama3.1
	// openai: no endpoint named: set Config.BaseURL (OPENAI_BASE_URL) to an OpenAI-compatible server, or Config.APIKey (OPENAI_API_KEY) to use https://api.openai.com/v1
}

func ExampleNew() {
	// A local vLLM server with DeepSeek-R1, rate-limited, with retries
	// that give up sooner than the defaults.
	cfg := openai.Config{
		BaseURL:           "http://localhost:8000/v1",
		Model:             "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B",
		RequestsPerMinute: 600,
		MaxRetries:        2,
	}
	c, err := openai.New(&cfg)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c)
	// Output:
	// openai.Client(deepseek-ai/DeepSeek-R1-Distill-Qwen-7B at http://localhost:8000/v1/chat/completions)
}
