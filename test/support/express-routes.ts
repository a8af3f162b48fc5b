import type { Express } from 'express';

export interface RegisteredRoute {
  readonly method: string;
  /** As an OpenAPI path template. */
  readonly path: string;
}

/** The parts of express 5 (router 2) layers the walk reads. */
interface Layer {
  readonly route?: { readonly path: string | string[]; readonly methods: Record<string, boolean | undefined> };
  readonly handle: { readonly stack?: Layer[] };
  /** The mount path of app.use / router.use. */
  readonly rawPath?: string | string[];
}

/** `/webhooks/:id` and `/images/bypath/*path` (path-to-regexp v8) as `/webhooks/{id}`, `/images/bypath/{path}`. */
export function toOpenApiPath(expressPath: string): string {
  if (/[{}()?]/.test(expressPath)) throw new Error(`the walk does not translate optional or regular-expression paths: ${expressPath}`);
  return expressPath.replace(/[:*]([A-Za-z_$][\w$]*)/g, '{$1}');
}

/** Every method and path the app routes, through nested and mounted routers; middleware without a route is skipped. */
export function registeredRoutes(app: Express): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  const walk = (stack: readonly Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const methods = Object.keys(layer.route.methods).filter((method) => layer.route!.methods[method]);
        for (const path of [layer.route.path].flat()) for (const method of methods) routes.push({ method, path: toOpenApiPath(prefix + path) });
      } else if (layer.handle.stack) {
        for (const mount of [layer.rawPath ?? '/'].flat()) walk(layer.handle.stack, mount === '/' ? prefix : prefix + mount);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return routes;
}
