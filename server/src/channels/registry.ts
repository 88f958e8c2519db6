import type { ProviderName } from "@atende/contracts";
import type { ChannelProvider } from "./provider.js";

/** Providers by name: a typed map, so no `if (provider == ...)` ladders anywhere. */
export type ProviderRegistry = Partial<Record<ProviderName, ChannelProvider>>;

export function providerFor(registry: ProviderRegistry, name: ProviderName): ChannelProvider | null {
  return registry[name] ?? null;
}
