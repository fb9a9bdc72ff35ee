import { Container, Tabs, Title } from '@mantine/core';

/** /profile — profile form and security settings (built by the identity work). */
export default function ProfilePage() {
  return (
    <Container size="md" py="xl">
      <Title order={1} mb="lg">
        Profile
      </Title>
      <Tabs defaultValue="profile">
        <Tabs.List>
          <Tabs.Tab value="profile">Profile Information</Tabs.Tab>
          <Tabs.Tab value="security">Security Settings</Tabs.Tab>
        </Tabs.List>
      </Tabs>
    </Container>
  );
}
