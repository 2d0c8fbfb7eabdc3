// Package s3svc calls S3 through aws-sdk-go-v2: the endpoint is runtime
// configuration, declared by the clients entry of libmod's authvet.yaml;
// Get/List/Head operations keep a safe method.
package s3svc

import (
	"bytes"
	"context"
	"io"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/authvet/authvet/grant"
)

var Files = grant.Grant{
	Outbound:      []string{"https://s3.amazonaws.com/"},
	Reversibility: grant.Compensable,
}

var None = grant.Grant{Reversibility: grant.Compensable}

type Server struct{ s3 *s3.Client }

//agent:operable grant=Files
func (s *Server) Put(ctx context.Context, key string, b []byte) error {
	_, err := s.s3.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("files"), Key: aws.String(key), Body: bytes.NewReader(b)})
	return err
}

//agent:operable grant=Files
func (s *Server) Get(ctx context.Context, key string) ([]byte, error) {
	out, err := s.s3.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("files"), Key: aws.String(key)})
	if err != nil {
		return nil, err
	}
	defer out.Body.Close()
	return io.ReadAll(out.Body)
}

//agent:operable grant=None
func (s *Server) Delete(ctx context.Context, key string) error {
	_, err := s.s3.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String("files"), Key: aws.String(key)}) // want `Delete calls out to "https://s3.amazonaws.com/"`
	return err
}

// Per-call options may move the endpoint: the declared one does not hold.
//
//agent:operable grant=Files
func (s *Server) PutElsewhere(ctx context.Context, key, endpoint string) error {
	_, err := s.s3.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("files"), Key: aws.String(key)}, func(o *s3.Options) { // want `PutElsewhere calls the AWS operation s3.\(\*Client\).PutObject with per-call options`
		o.BaseEndpoint = aws.String(endpoint)
	})
	return err
}

// A presigned read sends nothing and hands out only a read.
//
//agent:operable grant=None
func (s *Server) DownloadURL(ctx context.Context, key string) (string, error) {
	req, err := s3.NewPresignClient(s.s3).PresignGetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("files"), Key: aws.String(key)})
	if err != nil {
		return "", err
	}
	return req.URL, nil
}

// A presigned write sends nothing either, but whoever holds the URL can
// write: the handler delegates the write.
//
//agent:operable grant=None
func (s *Server) UploadURL(ctx context.Context, key string) (string, error) {
	req, err := s3.NewPresignClient(s.s3).PresignPutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("files"), Key: aws.String(key)}) // want `UploadURL calls out to "https://s3.amazonaws.com/"`
	if err != nil {
		return "", err
	}
	return req.URL, nil
}

// The same presigned write is allowed by a grant that names the endpoint.
//
//agent:operable grant=Files
func (s *Server) UploadURLAllowed(ctx context.Context, key string) (string, error) {
	req, err := s3.NewPresignClient(s.s3).PresignPutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("files"), Key: aws.String(key)})
	if err != nil {
		return "", err
	}
	return req.URL, nil
}
