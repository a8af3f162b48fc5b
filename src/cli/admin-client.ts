/** The admin API of a running service. */
export class AdminClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string | undefined,
  ) {}

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    if (!this.token) throw new Error('the admin token is needed: pass --token or set ADMIN_TOKEN');
    const response = await fetch(`${this.baseUrl}/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => ({}))) as { detail?: string };
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${answer.detail ?? ''}`.trim());
    return answer as T;
  }

  async reachable(): Promise<boolean> {
    try {
      await fetch(`${this.baseUrl}/health/live`, { signal: AbortSignal.timeout(2000) });
      return true;
    } catch {
      return false;
    }
  }
}
