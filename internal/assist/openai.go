package assist

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Environment variables that configure the OpenAI-compatible chat endpoint.
const (
	EnvChatBaseURL = "LORE_CHAT_BASE_URL" // e.g. http://localhost:11434/v1 or https://api.openai.com/v1
	EnvChatModel   = "LORE_CHAT_MODEL"    // the model name the endpoint expects
	EnvChatAPIKey  = "LORE_CHAT_API_KEY"  // sent as a bearer token; optional for local servers
)

// Chat is an OpenAI-compatible chat completions endpoint.
type Chat struct {
	BaseURL string // up to and including /v1
	Model   string
	APIKey  string
	Client  *http.Client // nil means a client with a 60 s timeout
}

// ChatFromEnv configures a Chat from LORE_CHAT_*; it returns nil when
// LORE_CHAT_BASE_URL is unset, and an error naming the variable when the
// configuration is incomplete or malformed.
func ChatFromEnv(getenv func(string) string) (*Chat, error) {
	base := strings.TrimSpace(getenv(EnvChatBaseURL))
	if base == "" {
		return nil, nil
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s=%s: not an http(s) URL", EnvChatBaseURL, base)
	}
	model := strings.TrimSpace(getenv(EnvChatModel))
	if model == "" {
		return nil, fmt.Errorf("%s is set but %s is not: name the model to use", EnvChatBaseURL, EnvChatModel)
	}
	return &Chat{BaseURL: strings.TrimRight(base, "/"), Model: model, APIKey: getenv(EnvChatAPIKey)}, nil
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Complete implements Model with one chat completions request.
func (c *Chat) Complete(ctx context.Context, system, prompt string, maxTokens int) (string, error) {
	body, err := json.Marshal(map[string]any{
		"model":       c.Model,
		"messages":    []chatMessage{{"system", system}, {"user", prompt}},
		"max_tokens":  maxTokens,
		"temperature": 0,
	})
	if err != nil {
		return "", fmt.Errorf("encoding the chat request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.BaseURL+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("building the chat request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	client := c.Client
	if client == nil {
		client = &http.Client{Timeout: 60 * time.Second}
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("calling %s: %w", c.BaseURL, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return "", fmt.Errorf("reading the chat response: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s answered %s: %s", c.BaseURL, resp.Status, firstLine(string(data)))
	}
	var out struct {
		Choices []struct {
			Message chatMessage `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return "", fmt.Errorf("decoding the chat response: %w", err)
	}
	if len(out.Choices) == 0 || strings.TrimSpace(out.Choices[0].Message.Content) == "" {
		return "", errors.New("the chat response has no content")
	}
	return out.Choices[0].Message.Content, nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
