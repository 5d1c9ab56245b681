// Package nginx is where NGINX Gateway Fabric
// (https://docs.nginx.com/nginx-gateway-fabric/) reads the Gateway API
// otherwise than the API does: its policy kinds. Facts several
// implementations share stay in package profile.
package nginx
