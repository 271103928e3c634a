// openapi-typescript writes its output with TypeScript 5's compiler API, which TypeScript 7 (the
// project's compiler, a native binary) no longer ships: its imports of "typescript" get the
// typescript5 devDependency instead. Loaded by infra/openapi.ts before openapi-typescript.
import { registerHooks } from 'node:module';

registerHooks({
  resolve: (specifier, context, nextResolve) =>
    specifier === 'typescript' && context.parentURL?.includes('/node_modules/openapi-typescript/')
      ? nextResolve('typescript5', context)
      : nextResolve(specifier, context),
});
