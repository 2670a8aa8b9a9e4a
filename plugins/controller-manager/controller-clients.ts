// Each controller's API client, as upstream's SimpleControllerClientBuilder gives it: the
// controller manager's connection and credentials, with an agent of its own
// (`<default agent>/<client name>`, e.g. `/certificate-controller` for the three CSR controllers),
// so the API server's logs tell which controller sent a request. One client per name, shared by
// the controllers that name it; each has its own rate limiter, as each ClientOrDie's clientset has.
import type { ClientConnection } from '../../core/client/connection.js';
import { RestClient, type RestClientOptions } from '../../core/client/rest-client.js';
import { addUserAgent } from '../../core/client/user-agent.js';

export class ControllerClients {
  readonly #clients = new Map<string, RestClient>();
  /** `defaultAgent` is rest.DefaultKubernetesUserAgent's, before any AddUserAgent. */
  constructor(private readonly connection: ClientConnection, private readonly options: RestClientOptions, private readonly defaultAgent: string) {}

  clientFor(name: string): RestClient {
    let client = this.#clients.get(name);
    if (!client) {
      client = new RestClient(this.connection, { ...this.options, userAgent: addUserAgent(this.defaultAgent, name) });
      this.#clients.set(name, client);
    }
    return client;
  }

  close(): void {
    for (const c of this.#clients.values()) c.close();
    this.#clients.clear();
  }
}
