// Package sdk is a REST client in go-github's shape: NewRequest builds
// the request from a method and a path under a configured base URL, and
// Do sends it through an *http.Client the caller supplies.
package sdk

import (
	"context"
	"net/http"
	"net/url"
)

type Client struct {
	client  *http.Client
	BaseURL *url.URL
	Users   *UsersService
}

type UsersService struct{ client *Client }

func NewClient(hc *http.Client) *Client {
	c := &Client{client: hc}
	c.BaseURL, _ = url.Parse("https://api.example.com/")
	c.Users = &UsersService{client: c}
	return c
}

func (c *Client) NewRequest(method, urlStr string) (*http.Request, error) {
	u, err := c.BaseURL.Parse(urlStr)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest(method, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	return req, nil
}

func withContext(ctx context.Context, req *http.Request) *http.Request { return req.WithContext(ctx) }

func (c *Client) bareDo(ctx context.Context, caller *http.Client, req *http.Request) (*http.Response, error) {
	req = withContext(ctx, req)
	return caller.Do(req)
}

func (c *Client) Do(ctx context.Context, req *http.Request) (*http.Response, error) {
	return c.bareDo(ctx, c.client, req)
}

func (s *UsersService) Get(ctx context.Context, user string) error {
	req, err := s.client.NewRequest("GET", "users/"+user)
	if err != nil {
		return err
	}
	_, err = s.client.Do(ctx, req)
	return err
}

func (s *UsersService) Delete(ctx context.Context, user string) error {
	req, err := s.client.NewRequest("DELETE", "users/"+user)
	if err != nil {
		return err
	}
	_, err = s.client.Do(ctx, req)
	return err
}
