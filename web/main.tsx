import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers } from './app/providers';
import { createAppRouter } from './app/router';
import { discoverSessionSource } from './app/session';
import { createQueryClient } from './lib/query-client';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <Providers queryClient={createQueryClient()} sessionSource={discoverSessionSource()}>
      <RouterProvider router={createAppRouter()} />
    </Providers>
  </StrictMode>,
);
